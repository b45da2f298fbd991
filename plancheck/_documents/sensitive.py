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
    stack: list[tuple[Any, Marks, bool]] = [(value, marks, False)]
    while stack:
        val, mk, inherited = stack.pop()
        if not inherited:
            mk = fit_marks(mk, val)
        marked = inherited or mk is True
        if isinstance(val, Mapping):
            for k, v in val.items():
                if marked and isinstance(k, str):
                    yield k
                if marked or not isinstance(mk, Mapping):
                    child = None
                elif isinstance(k, str):
                    child = mk.get(k)
                else:
                    # JSON keys are strings: marks cannot name this one, so it fails closed.
                    child = True if contains_sensitive(mk) else None
                stack.append((v, child, marked))
        elif isinstance(val, list):
            for i, v in enumerate(val):
                child = mk[i] if not marked and isinstance(mk, list) and i < len(mk) else None
                stack.append((v, child, marked))
        elif marked and val is not None and not isinstance(val, bool):
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
