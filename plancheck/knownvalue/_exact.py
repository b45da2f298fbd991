"""Building the exact check for a JSON value (``exact({"a": [1, "x"]})``), and explaining a failed
``value == check`` for pytest's assertion report.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from tfjsonpath import MapStep, Path, SliceStep, Step
from tfjsonpath._jsontypes import is_array, is_json_scalar, is_object, json_type

from .._checking.matcher import Check
from .._errors import ValueMismatchError
from .._frozen import public
from .._redact import Marks, Secrets, contains_sensitive, sensitive_shown
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
    TypeError: exact: the value at a[1] is not a JSON value: non-JSON set
    """
    # Pre-order list of (value, parent index, step); building it in reverse makes children first.
    nodes: list[tuple[Any, int, Step | None]] = []
    stack: list[tuple[Any, int, Step | None]] = [(value, -1, None)]
    while stack:
        item = stack.pop()
        nodes.append(item)
        node_value = item[0]
        me = len(nodes) - 1
        if is_array(node_value):
            stack.extend((node_value[i], me, SliceStep(i)) for i in range(len(node_value) - 1, -1, -1))
        elif is_object(node_value):
            for key in reversed(list(node_value.keys())):
                if not isinstance(key, str):
                    raise TypeError(
                        f"exact: object keys must be strings; the object at {_where(nodes, me)} "
                        f"has a {type(key).__name__} key"
                    )
                stack.append((node_value[key], me, MapStep(key)))
        elif not is_json_scalar(node_value):
            raise TypeError(
                f"exact: the value at {_where(nodes, me)} is not a JSON value: {json_type(node_value)}"
            )
    built: list[Check | None] = [None] * len(nodes)
    children: list[list[tuple[Step, Check]]] = [[] for _ in nodes]
    for index in range(len(nodes) - 1, -1, -1):
        node_value, parent, step = nodes[index]
        kids = children[index]
        kids.reverse()  # collected last-first
        check: Check
        if is_array(node_value):
            check = ListExact([kid for _, kid in kids])
        elif isinstance(node_value, Mapping):
            check = ObjectExact({s.key: kid for s, kid in kids if isinstance(s, MapStep)})
        elif node_value is None:
            check = Null()
        elif isinstance(node_value, bool):
            check = Bool(node_value)
        elif isinstance(node_value, str):
            check = StringExact(node_value)
        else:
            check = NumberExact(node_value)
        built[index] = check
        children[index] = []  # free as we go
        if parent >= 0 and step is not None:
            children[parent].append((step, check))
    root = built[0]
    assert root is not None
    return root


def _where(nodes: list[tuple[Any, int, Step | None]], index: int) -> str:
    steps: list[Step] = []
    while index >= 0:
        _, parent, step = nodes[index]
        if step is not None:
            steps.append(step)
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
        raise TypeError(f"explain_mismatch expects a knownvalue check, got {type(check).__name__}")
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
