"""What the value machinery costs: FrozenValue today beside attrs and a plain slotted dataclass (#34, move 3).

Three classes are written three ways each, with the same validation (the library's own
``checked_*`` functions), so the figures differ only by the machinery:

* ``check``: ``ExpectKnownValue(address, path, matcher, *, deposed=None)``, the typical plan check
  (``ResourcePathMatcherFields``): four fields, each validated and normalised after ``__init__``;
* ``view``: ``ResourceChange._of(raw, None)``, what the index hands out per resource (a
  :class:`~plancheck._frozen.ReadOnly` view today, built unchecked: its plan was validated whole);
* ``small``: ``SkipBelow(minimum)``-like, one validated field.

The ways: ``frozen`` (``@frozen`` on ``FrozenValue``: the real classes for ``check`` and ``view``),
``attrs`` (``@attrs.frozen(slots=True)``; validation in ``__attrs_post_init__``), ``attrs-conv``
(``attrs.Converter(takes_self=True)`` per field: validation without a post-init), and ``dataclass``
(``@dataclass(frozen=True, slots=True)`` with ``__post_init__``). Each line gives microseconds per
operation (best of ``--repeat`` rounds of ``--number`` calls): construction, repr, ``==`` of two
equal values, ``hash``, a pickle round trip, and setting a field (the refusal). Then the
import cost of ``attrs`` in a fresh interpreter, and whether ``import plancheck`` or a plain pytest
session with the plugin imports it today.

    .venv/bin/python benchmarks/bench_values.py [--number 20000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from collections.abc import Callable
from pathlib import Path as FilePath
from typing import Any

import attrs

from plancheck import ResourceChange
from plancheck import knownvalue as kv
from plancheck._checking.fields import checked_address, checked_deposed, checked_matcher, checked_path
from plancheck._frozen import FrozenValue, frozen
from plancheck._planchecks.values import ExpectKnownValue
from tfjsonpath import New, Path


def _name(value: object) -> str:
    return type(value).__name__


# --- check: ExpectKnownValue's argument set ---------------------------------------------------------------------


@frozen
class FrozenCheck(FrozenValue):
    """ResourcePathMatcherFields alone: the real ExpectKnownValue adds PlanCheck's base to the figures."""

    address: str
    path: Path
    matcher: Any
    _: dataclasses.KW_ONLY
    deposed: str | None = None

    def __post_init__(self) -> None:
        name = _name(self)
        self._set(
            address=checked_address(self.address, name),
            path=checked_path(self.path, name),
            matcher=checked_matcher(self.matcher, name),
            deposed=checked_deposed(self.deposed, name),
        )


@attrs.frozen(slots=True)
class AttrsCheck:
    address: str
    path: Path
    matcher: Any
    deposed: str | None = attrs.field(default=None, kw_only=True)

    def __attrs_post_init__(self) -> None:
        name = _name(self)
        object.__setattr__(self, "address", checked_address(self.address, name))
        object.__setattr__(self, "path", checked_path(self.path, name))
        object.__setattr__(self, "matcher", checked_matcher(self.matcher, name))
        object.__setattr__(self, "deposed", checked_deposed(self.deposed, name))


# mypy's attrs plugin refuses a converter built by a function ("only named functions, types and lambdas"):
# every field declared this way needs an ignore, a cost of this style the figures do not show.
def _conv(check: Callable[[object, str], Any]) -> Any:
    return attrs.Converter(lambda value, self: check(value, _name(self)), takes_self=True)


@attrs.frozen(slots=True)
class AttrsConvCheck:
    address: str = attrs.field(converter=_conv(checked_address))  # type: ignore[misc]
    path: Path = attrs.field(converter=_conv(checked_path))  # type: ignore[misc]
    matcher: Any = attrs.field(converter=_conv(checked_matcher))  # type: ignore[misc]
    deposed: str | None = attrs.field(default=None, kw_only=True, converter=_conv(checked_deposed))  # type: ignore[misc]


@dataclasses.dataclass(frozen=True, slots=True)
class DataclassCheck:
    address: str
    path: Path
    matcher: Any
    _: dataclasses.KW_ONLY
    deposed: str | None = None

    def __post_init__(self) -> None:
        name = _name(self)
        object.__setattr__(self, "address", checked_address(self.address, name))
        object.__setattr__(self, "path", checked_path(self.path, name))
        object.__setattr__(self, "matcher", checked_matcher(self.matcher, name))
        object.__setattr__(self, "deposed", checked_deposed(self.deposed, name))


# --- view: a resource change over its raw JSON object ---------------------------------------------------------


@attrs.frozen(slots=True, eq=False)
class AttrsView:
    raw: Any
    document: Any = None


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class DataclassView:
    raw: Any
    document: Any = None


# --- small: one validated field ----------------------------------------------------------------------------------


def _minimum(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name}: minimum must be a str, got {type(value).__name__}")
    return value


@frozen
class FrozenSmall(FrozenValue):
    minimum: str

    def __post_init__(self) -> None:
        self._set(minimum=_minimum(self.minimum, _name(self)))


@attrs.frozen(slots=True)
class AttrsSmall:
    minimum: str

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "minimum", _minimum(self.minimum, _name(self)))


@attrs.frozen(slots=True)
class AttrsConvSmall:
    minimum: str = attrs.field(converter=_conv(_minimum))  # type: ignore[misc]


@dataclasses.dataclass(frozen=True, slots=True)
class DataclassSmall:
    minimum: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "minimum", _minimum(self.minimum, _name(self)))


# --- measuring ---------------------------------------------------------------------------------------------------


def _us(func: Callable[[], object], number: int, repeat: int) -> float:
    return min(timeit.repeat(func, number=number, repeat=repeat)) / number * 1e6


def _refuse(value: object) -> Callable[[], None]:
    field = next(iter(getattr(type(value), "__slots__", ()) or ("raw",)))

    def attempt() -> None:
        try:
            setattr(value, field, None)
        except AttributeError:  # FrozenValue, ReadOnly, dataclasses.FrozenInstanceError, attrs' too
            return
        raise AssertionError(f"{type(value).__name__} let {field} be set")

    return attempt


def _row(family: str, way: str, build: Callable[[], Any], number: int, repeat: int, *, pickles: bool = True) -> None:
    one, two = build(), build()
    assert one == two or family == "view"
    figures = [
        _us(build, number, repeat),
        _us(lambda: repr(one), number, repeat),
        _us(lambda: one == two, number, repeat),
        _us(lambda: hash(one), number, repeat),
        _us(lambda: pickle.loads(pickle.dumps(one)), number // 4, repeat) if pickles else float("nan"),
        _us(_refuse(one), number, repeat),
    ]
    cells = "".join(f"{f:>9.2f}" for f in figures)
    print(f"{family:<7}{way:<12}{cells}")


def _import_ms(statement: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-X", "importtime", "-c", statement], capture_output=True, text=True,
                              check=True)
        total = 0
        for line in done.stderr.splitlines():
            parts = [p.strip() for p in line.removeprefix("import time:").split("|")]
            if len(parts) == 3 and parts[2] == "attrs":  # cumulative: attr, its engine, are inside
                total = int(parts[1])
        times.append(total / 1000)
    return statistics.median(times)


def _imported(statement: str) -> bool:
    code = f"{statement}; import sys; print('attr' in sys.modules or 'attrs' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.strip() == "True"


def _session_ms(runs: int) -> float:
    """Median wall time of a plain one-test pytest session with the plugin (what a new import adds to)."""
    directory = FilePath(tempfile.mkdtemp(prefix="bench-values-"))
    try:
        (directory / "pytest.ini").write_text("[pytest]\n")
        (directory / "test_plain.py").write_text("def test_one():\n    assert 1\n")
        times = []
        for _ in range(runs + 1):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=directory,
                           capture_output=True, check=True)
            times.append((time.perf_counter() - started) * 1000)
        return statistics.median(times[1:])  # the first warms the bytecode
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--import-runs", type=int, default=9)
    options = parser.parse_args()
    n, r = options.number, options.repeat
    path, matcher = New("tags").AtMapKey("Name"), kv.StringExact("web")
    raw = {"address": "aws_instance.web[0]", "type": "aws_instance", "change": {"actions": ["create"]}}

    print(f"python {sys.version.split()[0]}, attrs {attrs.__version__}; microseconds per operation, "
          f"best of {r} x {n}")
    print(f"{'':<7}{'':<12}{'build':>9}{'repr':>9}{'==':>9}{'hash':>9}{'pickle':>9}{'set':>9}")
    _row("check", "frozen", lambda: ExpectKnownValue("aws_instance.web", path, matcher), n, r)
    _row("check", "frozen-base", lambda: FrozenCheck("aws_instance.web", path, matcher), n, r)
    _row("check", "attrs", lambda: AttrsCheck("aws_instance.web", path, matcher), n, r)
    _row("check", "attrs-conv", lambda: AttrsConvCheck("aws_instance.web", path, matcher), n, r)
    _row("check", "dataclass", lambda: DataclassCheck("aws_instance.web", path, matcher), n, r)
    # A view compares by identity and is not pickled (it holds its document); hash is the identity hash.
    _row("view", "readonly", lambda: ResourceChange._of(raw, None), n, r, pickles=False)
    _row("view", "attrs", lambda: AttrsView(raw), n, r, pickles=False)
    _row("view", "dataclass", lambda: DataclassView(raw), n, r, pickles=False)
    _row("small", "frozen", lambda: FrozenSmall("1.0.0"), n, r)
    _row("small", "attrs", lambda: AttrsSmall("1.0.0"), n, r)
    _row("small", "attrs-conv", lambda: AttrsConvSmall("1.0.0"), n, r)
    _row("small", "dataclass", lambda: DataclassSmall("1.0.0"), n, r)

    print()
    attrs_ms, session_ms = _import_ms("import attrs", options.import_runs), _session_ms(options.import_runs)
    print(f"import attrs (fresh interpreter, median of {options.import_runs}): {attrs_ms:.1f} ms")
    print(f"plain one-test pytest session with the plugin: {session_ms:.0f} ms; importing attrs in it would add "
          f"{attrs_ms / session_ms:.1%} (budget for all the plugin adds: 5%)")
    print(f"import dataclasses, for scale (a plain session imports it already: pytest does): "
          f"{_dataclasses_ms(options.import_runs):.1f} ms")
    for statement in ("import plancheck", "import pytest, plancheck.plugin",
                      "import plancheck; plancheck.ExpectKnownValue"):
        print(f"{statement!r} imports attrs today: {_imported(statement)}")


def _dataclasses_ms(runs: int) -> float:
    times = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-X", "importtime", "-c", "import dataclasses"], capture_output=True,
                              text=True, check=True)
        for line in done.stderr.splitlines():
            parts = [p.strip() for p in line.removeprefix("import time:").split("|")]
            if len(parts) == 3 and parts[2] == "dataclasses":
                times.append(int(parts[1]) / 1000)
    return statistics.median(times)


if __name__ == "__main__":
    main()
