"""marked_strings (a plan's secret collection) is walked with type fast paths, since a snapshot collects the
secrets of whole plans: it yields exactly what the plain walk yields, malformed marks included."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck._documents.sensitive import collect_plan_secrets, marked_strings
from plancheck._redact import Marks, contains_sensitive, fit_marks


def reference(value: Any, marks: Marks) -> Iterator[str]:
    """The plain walk: every value checked with isinstance, every marks node fitted."""
    stack: list[tuple[Any, Marks, bool]] = [(value, marks, False)]
    while stack:
        val, mk, inherited = stack.pop()
        if not inherited:
            mk = fit_marks(mk, val)
        marked = inherited or mk is True
        if isinstance(val, Mapping):
            for k, v in val.items():
                if marked:
                    yield k if isinstance(k, str) else str(k)  # a key of a Python value is spelled as JSON writes it
                if marked or not isinstance(mk, Mapping):
                    child = None
                elif isinstance(k, str):
                    child = mk.get(k)
                else:
                    child = True if contains_sensitive(mk) else None
                stack.append((v, child, marked))
        elif isinstance(val, list):
            for i, v in enumerate(val):
                child = mk[i] if not marked and isinstance(mk, list) and i < len(mk) else None
                stack.append((v, child, marked))
        elif marked and val is not None and not isinstance(val, bool):
            yield str(val)


scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5))
keys = st.one_of(st.text(max_size=3), st.integers(0, 3))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                       st.dictionaries(keys, inner, max_size=3)), max_leaves=10)
marks = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(0, 2), st.just("true")),
                     lambda inner: st.one_of(st.lists(inner, max_size=3),
                                             st.dictionaries(st.text(max_size=3), inner, max_size=3)), max_leaves=10)


@settings(max_examples=400, deadline=None)
@given(values, marks)
def test_the_fast_walk_yields_what_the_plain_walk_yields(value: Any, mark: Any) -> None:
    assert sorted(marked_strings(value, mark)) == sorted(set(reference(value, mark)))


def _plan(after: Any, marks: Any, planned: Any, planned_marks: Any, prior: Any = None) -> dict[str, Any]:
    return {
        "resource_changes": [{"address": "a.b", "change": {"before": prior, "before_sensitive": marks,
                                                         "after": after, "after_sensitive": marks}}],
        "planned_values": {"root_module": {"resources": [{"address": "a.b", "values": planned,
                                                          "sensitive_values": planned_marks}]}},
        "prior_state": {"values": {"root_module": {"resources": [{"address": "a.b", "values": {"pw": "prior-secret"},
                                                                  "sensitive_values": {"pw": True}}]}}},
    }


@pytest.mark.parametrize(
    ("planned", "planned_marks", "collected"),
    [
        pytest.param({"pw": "hunter2"}, {"pw": True}, {"hunter2", "prior-secret"}, id="planned-equal-to-after"),
        pytest.param({"pw": "other-secret"}, {"pw": True}, {"hunter2", "other-secret", "prior-secret"},
                     id="planned-value-differs"),
        pytest.param({"pw": "hunter2", "k": "key-secret"}, {"pw": True, "k": True},
                     {"hunter2", "key-secret", "prior-secret"}, id="planned-marks-differ"),
        pytest.param({"pw": Decimal("sNaN")}, {"pw": True}, {"hunter2", "sNaN", "prior-secret"},
                     id="planned-value-uncomparable"),
    ],
)
def test_planned_values_are_skipped_only_where_they_repeat_the_change(
    planned: Any, planned_marks: Any, collected: set[str]
) -> None:
    # Planned values that equal their change's ``after`` are not walked again; any other is.
    doc = _plan({"pw": "hunter2"}, {"pw": True}, planned, planned_marks, prior={"pw": "hunter2"})
    assert set(collect_plan_secrets(doc).ordered) == collected
