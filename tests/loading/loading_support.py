"""Shared helpers of the loading tests: the corpus, generated plans, and loading by every route."""

from __future__ import annotations

import functools
import importlib.util
import json
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import plancheck._loading.load as load_module
import plancheck._loading.parallel as parallel_module
import plancheck._loading.split as split_module
import plancheck._loading.split_state as split_state_module
from plancheck._documents.plan import Plan
from plancheck._errors import DocumentFormatError
from plancheck._loading.jsontext import fast_parser_available

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus"
GEN_PLAN = SHARED / "bench" / "gen_plan.py"

needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="shared/corpus is not beside the repository")
needs_fast = pytest.mark.skipif(
    not fast_parser_available(), reason="the fast extra (msgspec) is not installed"
)


def corpus_files(kind: str) -> list[Path]:
    """The corpus files of one kind (``plans``, ``states``, ``other``, ``invalid``), or none without a corpus."""
    return sorted((CORPUS / kind).glob("*.json")) if CORPUS.is_dir() else []


@functools.cache
def generated_plan(resources: int, seed: int) -> bytes:
    """A plan from the shared generator (skips the test when it is absent)."""
    if not GEN_PLAN.is_file():
        pytest.skip("shared/bench/gen_plan.py is not beside the repository")
    spec = importlib.util.spec_from_file_location("plancheck_tests_gen_plan", GEN_PLAN)
    assert spec is not None
    assert spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "plan.json"
        gen.main(["--resources", str(resources), "--seed", str(seed), "-o", str(out), "--targets", "20"])
        return out.read_bytes()


def exactly_equal(a: Any, b: Any, *, key_order: bool = True) -> bool:
    """Equal, with the same types everywhere (1 is not 1.0 is not True) and the same key order (unless not asked)."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if type(x) is not type(y):
            return False
        if isinstance(x, dict):
            if (list(x) if key_order else sorted(x)) != (list(y) if key_order else sorted(y)):
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif isinstance(x, list):
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y, strict=True))
        elif x != y:
            return False
    return True


def plain(document: Any) -> Any:
    """A lazily parsed top level as a plain dict (its values are plain already once read)."""
    return {key: document[key] for key in document}


def deep_plain(document: Any) -> Any:
    """A lazily parsed document (objects at any depth, as a split state has) as plain dicts and lists."""
    if isinstance(document, dict):
        return {key: deep_plain(value) for key, value in document.items()}
    if isinstance(document, list):
        return [deep_plain(value) for value in document]
    if hasattr(document, "peek"):  # a LazyObject
        return {key: deep_plain(document[key]) for key in document}
    return document


#: Every way a plan can be loaded: (parser, lazy split on any size, helper process on any size).
ROUTES = {
    "stdlib": ("stdlib", False),
    "stdlib-parallel": ("stdlib", True),
    "fast": ("fast", False),
    "fast-lazy": ("fast", True),
}


@contextmanager
def route(name: str) -> Iterator[str]:
    """Force a loading route; yields the parser to pass to the loader."""
    parser, split = ROUTES[name]
    if parser == "fast" and not fast_parser_available():
        pytest.skip("the fast extra (msgspec) is not installed")
    with pytest.MonkeyPatch.context() as mp:
        size = 0 if split else 1 << 62
        mp.setattr(load_module, "LAZY_MIN_BYTES", size)
        mp.setattr(load_module, "LAZY_STATE_MIN_BYTES", size)
        mp.setattr(split_state_module, "DEFER_MIN_BYTES", 0 if split else 1 << 62)
        mp.setattr(parallel_module, "PARALLEL_MIN_BYTES", size)
        mp.setattr(split_module, "DEFER_MIN_BYTES", 0 if split else 1 << 62)
        mp.delenv("PLANCHECK_PARALLEL", raising=False)
        mp.delenv("PLANCHECK_JSON_PARSER", raising=False)
        yield parser


def load_by(
    name: str, data: bytes, validation: str = "fast", *, allow_errored: bool = False
) -> Plan | DocumentFormatError:
    """The plan, or the format error, that route ``name`` gives for ``data``."""
    with route(name) as parser:
        try:
            return Plan.from_json(data, source="plan.json", validation=validation, parser=parser,
                                  allow_errored=allow_errored)
        except DocumentFormatError as exc:
            return exc


def load_fully(name: str, data: bytes, validation: str = "fast") -> Plan | DocumentFormatError:
    """Like :func:`load_by`, then read every member and every entry.

    The fast route validates ``planned_values``, ``prior_state``, ``configuration`` and each
    entry's marks trees when they are first read: its verdict is the load's and these reads'.
    """
    with route(name) as parser:
        try:
            plan = Plan.from_json(data, source="plan.json", validation=validation, parser=parser)
            plain(plan.raw)
            return plan
        except DocumentFormatError as exc:
            return exc


#: Where a lazy route finds a problem only when the value is first read (see ``split``).
READ_LATER = {
    "fast-lazy": re.compile(r"\$\.(planned_values|prior_state|configuration|resource_changes|resource_drift)\b"),
    "stdlib-parallel": re.compile(r"\$\.(planned_values|prior_state|configuration)\b"),
}
_NUMBER_RANGE = "a number that Python's Decimal can hold"


def same_verdict(route_name: str, got: Any, expected: Any) -> bool:
    """Whether a route's outcome (plan or error) agrees with the standard library's.

    Errors agree when they are the same. On a lazy route, what is parsed on first access is
    validated then, and its numbers converted then: the same problem may lack its line and
    column, and when the first problem lies in such a value, the load may have found
    another one of the same document first.
    """
    if isinstance(expected, DocumentFormatError):
        if not isinstance(got, DocumentFormatError):
            return False
        if str(got) == str(expected):
            return True
        later = READ_LATER.get(route_name)
        if later is None:
            return False
        same_place = (got.location, got.expected) == (expected.location, expected.expected)
        return same_place or expected.expected.startswith(_NUMBER_RANGE) or later.match(expected.location) is not None
    return not isinstance(got, DocumentFormatError) and exactly_equal(plain(got.raw), plain(expected.raw))


def dumps(document: Any) -> bytes:
    """Compact JSON bytes, as Terraform writes them."""
    return json.dumps(document, separators=(",", ":")).encode()
