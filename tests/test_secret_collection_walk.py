"""The walk that collects a document's marked strings (collect_marked) skips the marks nodes that mark nothing
(``{}``, ``[]``, ``[false, ...]``: most of a large plan's marks) without changing what it collects.

The oracle is what the marks mean, walked recursively with no node skipped: on arbitrary values and marks (of the
wrong kind for the value, malformed, with keys that are not strings) the walk collects exactly its strings, as
the walk before the cut did (its doctests and the secret collection tests pin the rest). A falsy marks
node that is no container (``0``, ``""``) still fails closed, as the table pins.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from plancheck._documents.sensitive import collect_marked
from plancheck._redact import Marks, collect_secret_strings, contains_sensitive, fit_marks


def _marked(value: Any, marks: Marks, found: set[str]) -> None:
    """What the walk collects, as Terraform's marks mean it (the oracle): recursive, and no node skipped."""
    if marks is not True and marks is not None and marks is not False:
        marks = fit_marks(marks, value)  # a malformed node fails closed
    if marks is True:
        collect_secret_strings(value, found)
    elif isinstance(marks, Mapping) and isinstance(value, Mapping):
        _marked_object(value, marks, found)
    elif isinstance(marks, list) and isinstance(value, list):
        for item, child in zip(value, marks, strict=False):
            _marked(item, child, found)


def _marked_object(value: Mapping[Any, Any], marks: Mapping[str, Marks], found: set[str]) -> None:
    if contains_sensitive(marks):  # marks name only string keys: what another key holds fails closed
        for key, item in value.items():
            if not isinstance(key, str):
                collect_secret_strings(item, found)
    for key, child in marks.items():
        if key in value:
            _marked(value[key], child, found)


KEYS = st.sampled_from(["a", "b", "c"])
scalars = st.none() | st.booleans() | st.integers(-3, 300) | st.sampled_from(["xyz", "pw-1", "sec", "ab"])
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(KEYS, inner, max_size=3)
        | st.dictionaries(st.integers(100, 102), inner, max_size=2)
    ),  # a Python value's key that is no string
    max_leaves=12,
)
# Falsy nodes that are no container (0, "", 0.0) fail closed like any malformed node; empty containers and
# arrays of false mark nothing: all of them are drawn often.
MALFORMED = st.sampled_from([1, 0, "true", "false", "", 0.0, 1.5])
NOTHING = st.sampled_from([{}, [], [False], [False, False], [False, None]])
marks = st.recursive(
    st.booleans() | st.none() | MALFORMED | NOTHING,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
    max_leaves=10,
)


@settings(max_examples=600, deadline=None)
@given(st.lists(st.tuples(values, marks), max_size=3))
@example([({"a": ["xyz", "pw-1"]}, {"a": [False, 0]})])
@example([({"a": "xyz", 100: "pw-1"}, {"a": {}, "b": [0]})])
def test_the_walk_collects_what_the_old_walk_collected(roots: list[tuple[Any, Marks]]) -> None:
    found: set[str] = set()
    collect_marked(roots, found)
    expected: set[str] = set()
    for value, mk in roots:
        _marked(value, mk, expected)
    assert found == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(values, marks), max_size=3))
def test_the_walk_of_parsed_json_collects_what_the_old_walk_collected(roots: list[tuple[Any, Marks]]) -> None:
    """A document parsed from JSON text (a plan read lazily) has string keys only, and its walk does not ask."""
    roots = json.loads(json.dumps(roots))  # what JSON text holds: the integer keys become strings
    found: set[str] = set()
    collect_marked(roots, found, parsed_json=True)
    expected: set[str] = set()
    for value, mk in roots:
        _marked(value, mk, expected)
    assert found == expected


@pytest.mark.parametrize(
    ("value", "marks", "collected"),
    [
        pytest.param({"a": "pw-1"}, {"a": {}}, set(), id="empty-object-marks-nothing"),
        pytest.param({"a": "pw-1"}, {"a": []}, set(), id="empty-array-marks-nothing"),
        pytest.param({"a": ["pw-1", "xyz"]}, {"a": [False, False]}, set(), id="array-of-false-marks-nothing"),
        pytest.param({"a": "pw-1"}, {"a": 0}, {"pw-1"}, id="zero-fails-closed"),
        pytest.param({"a": "pw-1"}, {"a": ""}, {"pw-1"}, id="empty-string-fails-closed"),
        pytest.param({"a": "pw-1"}, {"a": 0.0}, {"pw-1"}, id="float-zero-fails-closed"),
        pytest.param(
            {"a": ["pw-1", "xyz"]}, {"a": [False, 0]}, {"xyz"}, id="zero-in-an-array-of-false-fails-closed"
        ),
        pytest.param({"a": ["pw-1", "xyz"]}, {"a": [0, False]}, {"pw-1"}, id="zero-first-fails-closed"),
        pytest.param(
            {"a": ["pw-1"]}, [0], {"a", "pw-1"}, id="array-marks-over-an-object-with-a-malformed-node"
        ),
        pytest.param(
            {"a": {"k": "pw-1"}}, {"a": [""]}, {"k", "pw-1"}, id="array-marks-over-an-object-fail-closed"
        ),
        pytest.param(
            {"a": [{"k": "pw-1"}]}, {"a": [{}]}, set(), id="an-array-of-empty-objects-marks-nothing"
        ),
        pytest.param(
            {"a": [{"k": "pw-1"}]}, {"a": [{"k": ""}]}, {"pw-1"}, id="nested-empty-string-fails-closed"
        ),
    ],
)
def test_what_marks_nothing_and_what_fails_closed(value: Any, marks: Marks, collected: set[str]) -> None:
    found: set[str] = set()
    collect_marked([(value, marks)], found)
    assert found == collected
