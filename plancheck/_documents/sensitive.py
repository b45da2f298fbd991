"""Collecting the secret strings of a document, to scrub them from every message."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .._redact import Marks, Secrets, contains_sensitive, fit_marks

__all__ = ["collect_plan_secrets", "collect_state_secrets", "marked_strings"]


def marked_strings(value: Any, marks: Marks) -> Iterator[str]:
    """Yield every string (and every number's text) in ``value`` that lies under a ``true`` mark,
    and the keys of every object under one (a sensitive map's keys are as secret as its values).

    Marks that do not fit the value fail closed (:func:`plancheck._redact.fit_marks`): what they
    cover is collected.

    >>> sorted(marked_strings({"a": "x1x", "b": ["p", "q"]}, {"b": [False, True]}))
    ['q']
    >>> sorted(marked_strings({"tags": {"key-1": "v"}, "name": "n"}, {"tags": True}))
    ['key-1', 'v']
    >>> sorted(marked_strings({"a": "x1x", "b": "pw1", "c": ["q"]}, {"a": 1, "b": [True], "c": {"x": True}}))
    ['pw1', 'q', 'x1x']
    """
    # The types JSON parsers build (dict, list, str) are tested by identity first: a whole plan is walked
    # (a snapshot asks for every secret of it), and an ABC check per value costs more than the rest.
    stack: list[tuple[Any, Marks, bool]] = [(value, marks, False)]
    pop, push = stack.pop, stack.append
    while stack:
        val, mk, inherited = pop()
        kind = type(val)
        if inherited:
            marked = True
        else:
            if mk is not None and mk is not True and mk is not False:
                mark_kind = type(mk)
                if not ((mark_kind is dict or mark_kind is list) and (kind is mark_kind or val is None)):
                    mk = fit_marks(mk, val)
            marked = mk is True
        if kind is str:
            if marked:
                yield val
        elif kind is dict or (kind is not list and isinstance(val, Mapping)):
            if marked:
                for k, v in val.items():
                    if isinstance(k, str):
                        yield k
                    push((v, None, True))
            elif type(mk) is dict or isinstance(mk, Mapping):
                for k, v in val.items():
                    # JSON keys are strings: marks cannot name another key, so it fails closed.
                    child = mk.get(k) if isinstance(k, str) else (True if contains_sensitive(mk) else None)
                    push((v, child, False))
            else:
                for v in val.values():
                    push((v, None, False))
        elif kind is list or isinstance(val, list):
            if marked:
                for v in val:
                    push((v, None, True))
            elif type(mk) is list or isinstance(mk, list):
                count = len(mk)
                for i, v in enumerate(val):
                    push((v, mk[i] if i < count else None, False))
            else:
                for v in val:
                    push((v, None, False))
        elif marked and val is not None and kind is not bool:
            yield str(val)


def _sensitive_variable_names(document: Mapping[str, Any]) -> set[str]:
    config = document.get("configuration")
    root = config.get("root_module") if isinstance(config, Mapping) else None
    variables = root.get("variables") if isinstance(root, Mapping) else None
    if not isinstance(variables, Mapping):
        return set()
    # A "sensitive" that is not false or null ("true", 1) fails closed.
    return {name for name, v in variables.items() if isinstance(v, Mapping) and contains_sensitive(v.get("sensitive"))}


def _state_secrets(state_values: Any) -> Iterator[str]:
    """Secrets in a state ``values`` object: sensitive outputs and resources' sensitive_values."""
    if not isinstance(state_values, Mapping):
        return
    outputs = state_values.get("outputs")
    if isinstance(outputs, Mapping):
        for out in outputs.values():
            if isinstance(out, Mapping) and contains_sensitive(out.get("sensitive")):
                yield from marked_strings(out.get("value"), True)
    modules = [state_values.get("root_module")]
    while modules:
        module = modules.pop()
        if not isinstance(module, Mapping):
            continue
        for res in module.get("resources") or ():
            if isinstance(res, Mapping):
                yield from marked_strings(res.get("values"), res.get("sensitive_values"))
        modules.extend(module.get("child_modules") or ())


def collect_plan_secrets(document: Mapping[str, Any]) -> Secrets:
    """Every secret string of a plan document.

    >>> doc = {"variables": {"pw": {"value": "hunter2"}},
    ...        "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}}}
    >>> "hunter2" in collect_plan_secrets(doc)
    True
    """
    found: list[str] = []
    variables = document.get("variables")
    if isinstance(variables, Mapping):
        for name in _sensitive_variable_names(document):
            var = variables.get(name)
            if isinstance(var, Mapping):
                found.extend(marked_strings(var.get("value"), True))
    for key in ("resource_changes", "resource_drift"):
        for rc in document.get(key) or ():
            change = rc.get("change") if isinstance(rc, Mapping) else None
            if isinstance(change, Mapping):
                found.extend(marked_strings(change.get("before"), change.get("before_sensitive")))
                found.extend(marked_strings(change.get("after"), change.get("after_sensitive")))
    for deferred in document.get("deferred_changes") or ():
        rc = deferred.get("resource_change") if isinstance(deferred, Mapping) else None
        change = rc.get("change") if isinstance(rc, Mapping) else None
        if isinstance(change, Mapping):
            found.extend(marked_strings(change.get("before"), change.get("before_sensitive")))
            found.extend(marked_strings(change.get("after"), change.get("after_sensitive")))
    outputs = document.get("output_changes")
    if isinstance(outputs, Mapping):
        for change in outputs.values():
            if isinstance(change, Mapping):
                found.extend(marked_strings(change.get("before"), change.get("before_sensitive")))
                found.extend(marked_strings(change.get("after"), change.get("after_sensitive")))
    planned = document.get("planned_values")
    found.extend(_state_secrets(planned))
    prior = document.get("prior_state")
    if isinstance(prior, Mapping):
        found.extend(_state_secrets(prior.get("values")))
    return Secrets(found)


def collect_state_secrets(document: Mapping[str, Any]) -> Secrets:
    """Every secret string of a state document (``terraform show -json`` of a state).

    >>> doc = {"values": {"outputs": {"pw": {"value": "hunter2", "sensitive": True}}}}
    >>> "hunter2" in collect_state_secrets(doc)
    True
    """
    return Secrets(_state_secrets(document.get("values")))
