"""Building the exact check for a JSON value (``exact({"a": [1, "x"]})``), and explaining a failed
``value == check`` for pytest's assertion report.
"""

from __future__ import annotations

from typing import Any, Final

from tfjsonpath import MapStep, Path, SliceStep, Step
from tfjsonpath._jsontypes import (
    Node,
    find_cycle,
    fold_nodes,
    is_array,
    is_json_scalar,
    is_object,
    json_nodes,
    json_type,
)

from .._checking.matcher import Check
from .._errors import ArgumentError, ValueMismatchError
from .._frozen import public
from .._redact import Marks, Secrets, contains_sensitive, sensitive_shown
from .._text import cycle_text
from ._collections import ListExact, ObjectExact
from ._scalars import Bool, Null, NumberExact, StringExact

__all__ = ["exact", "explain_mismatch"]


@public("plancheck.knownvalue")
def exact(value: Any) -> Check:
    """The check that matches exactly ``value``: arrays become ListExact, objects ObjectExact,
    numbers NumberExact (exact, any precision), strings StringExact, bools Bool, null Null.

    Works iteratively, so any depth is fine. A non-JSON value raises TypeError naming where it is.

    >>> exact({"tags": {"env": "prod"}, "ports": [80, 443], "id": None})
    ObjectExact({'id': Null(), 'ports': ListExact([NumberExact(80), NumberExact(443)]), 'tags': ObjectExact({'env': StringExact('prod')})})
    >>> exact({"a": [1, {2}]})
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: exact: the value at a[1] is not a JSON value: non-JSON set
    >>> looped = {"a": []}
    >>> looped["a"].append(looped)
    >>> exact(looped)
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: exact: the value at a[0] contains itself (a cycle back to the root)
    """
    cycle = find_cycle(value, sequence=is_array)
    if cycle is not None:
        raise ArgumentError(f"exact: {cycle_text(cycle)}")
    nodes = json_nodes(value)
    for index, (node, _, _) in enumerate(nodes):  # in document order: the first bad value is the one named
        if is_object(node):
            for key in reversed(list(node.keys())):
                if not isinstance(key, str):
                    raise ArgumentError(
                        f"exact: object keys must be strings; the object at {_where(nodes, index)} "
                        f"has a {type(key).__name__} key"
                    )
        elif not (is_array(node) or is_json_scalar(node)):
            raise ArgumentError(f"exact: the value at {_where(nodes, index)} is not a JSON value: {json_type(node)}")
    root: Check = fold_nodes(nodes, _exact_check)
    return root


def _exact_check(value: Any, children: list[tuple[Any, Check]]) -> Check:
    if is_array(value):
        return ListExact([kid for _, kid in children])
    if is_object(value):
        return ObjectExact(dict(children))
    if value is None:
        return Null()
    if isinstance(value, bool):
        return Bool(value)
    if isinstance(value, str):
        return StringExact(value)
    return NumberExact(value)


def _where(nodes: list[Node], index: int) -> str:
    steps: list[Step] = []
    while index >= 0:
        _, parent, key = nodes[index]
        if parent >= 0:
            steps.append(MapStep(key) if isinstance(key, str) else SliceStep(key))
        index = parent
    steps.reverse()
    text = Path(*steps).to_text()
    return text if text else "the root"


_MAX_REPR: Final = 200


@public("plancheck.knownvalue")
def explain_mismatch(
    check: Check,
    value: Any,
    *,
    sensitive: Marks = None,
    secrets: Secrets | None = None,
    unknown: Marks = None,
) -> list[str] | None:
    """Lines explaining why ``value`` does not match ``check``, or None if it matches.

    Meant for a ``pytest_assertrepr_compare`` hook, so that ``assert value == kv.X(...)``
    reports where and why the value differs.

    >>> from plancheck import knownvalue as kv
    >>> for line in explain_mismatch(kv.ListExact([kv.StringExact("a")]), ["b"]):
    ...     print(line)
    value does not match ListExact([StringExact('a')])
    [0]: expected value "a" for StringExact check, got: "b"
    >>> explain_mismatch(kv.StringExact("a"), "a") is None
    True
    """
    if not isinstance(check, Check):
        raise ArgumentError(f"explain_mismatch expects a knownvalue check, got {type(check).__name__}")
    try:
        check.CheckValue(value, sensitive=sensitive, secrets=secrets, unknown=unknown)
    except ValueMismatchError as exc:
        shown = repr(check)
        if len(shown) > _MAX_REPR:
            shown = shown[: _MAX_REPR - 1] + "…"
        if not sensitive_shown() and (
            contains_sensitive(sensitive) or (secrets is not None and secrets.touches(shown))
        ):
            # The check's literals may equal the hidden value, so name the check only.
            shown = f"{check.describe()} check"
        return [f"value does not match {shown}", str(exc)]
    return None
