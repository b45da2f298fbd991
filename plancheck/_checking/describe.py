"""Phrases that say what a resolved planned value is, for failure messages, without leaking secrets."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._documents.plan import Change, HasSecrets
from .._documents.resolve import ResolvedValue, ValueStatus
from .._redact import Marks, Secrets, contains_sensitive, fit_marks, render_value
from .messages import actions_text

__all__ = ["describe", "no_planned_value", "render_known", "sensitive_problem"]


class _Unknown:
    """Stands in for an unknown element, so a partly unknown value renders as ``[<unknown>, "k"]``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<unknown>"


# render_value shows an object it does not know as <type name>.
_Unknown.__name__ = "unknown"
_UNKNOWN = _Unknown()


def _overlay_unknown(value: Any, marks: Marks) -> Any:
    """A copy of ``value`` with every element marked unknown replaced by a placeholder.

    Terraform leaves unknown object attributes out of ``after`` and writes unknown
    list elements as null; both come back as the placeholder. Iterative, so depth is free.
    Marks that do not fit the value fail closed (:func:`plancheck._redact.fit_marks`).

    >>> _overlay_unknown({"a": "x", "b": [None, "y"]}, {"b": [True, False], "c": True, "a": [True]})
    {'a': <unknown>, 'b': [<unknown>, 'y'], 'c': <unknown>}
    """
    root: list[Any] = [None]
    stack: list[tuple[Any, Marks, Any, Any]] = [(value, marks, root, 0)]
    while stack:
        val, mk, parent, slot = stack.pop()
        mk = fit_marks(mk, val)
        if mk is True:
            parent[slot] = _UNKNOWN
        elif isinstance(val, Mapping):
            copy: dict[Any, Any] = {}
            parent[slot] = copy
            sub = mk if isinstance(mk, Mapping) else {}
            for key, child in val.items():
                copy[key] = None
                stack.append((child, sub.get(key), copy, key))
            for key, child_mark in sub.items():
                if key not in val and fit_marks(child_mark) is True:
                    copy[key] = _UNKNOWN
        elif isinstance(val, list):
            items: list[Any] = [None] * len(val)
            parent[slot] = items
            sub_list = mk if isinstance(mk, list) else []
            for i, child in enumerate(val):
                stack.append((child, sub_list[i] if i < len(sub_list) else None, items, i))
        else:
            parent[slot] = val
    return root[0]


def render_known(resolved: ResolvedValue, secrets: Secrets) -> str:
    """A known value as text: sensitive parts as ``(sensitive)``, unknown parts as ``<unknown>``."""
    value = resolved.value
    if resolved.partly_unknown:
        value = _overlay_unknown(value, resolved.value_unknown)
    return render_value(value, True if resolved.sensitive else resolved.value_sensitive, secrets)


def describe(resolved: ResolvedValue, secrets: Secrets) -> str:
    """What the value is: ``known: "x"``, ``known, with unknown parts: [...]``, ``unknown``, ``null``, ``not present (...)``."""
    if resolved.status is ValueStatus.KNOWN:
        if resolved.partly_unknown:
            return f"known, with unknown parts: {render_known(resolved, secrets)}"
        return f"known: {render_known(resolved, secrets)}"
    return resolved.describe(secrets)


def no_planned_value(change: Change, what: str) -> str | None:
    """Why a change being deleted or forgotten has no planned value at all, or None."""
    if change.raw.get("after") is not None:
        return None  # the common case, decided without building the actions tuple
    actions = change.actions
    if actions and all(a in ("delete", "forget") for a in actions):
        return f"not present: the {what} has no planned value (action(s): {actions_text(actions)})"
    return None


def sensitive_problem(resolved: ResolvedValue, document: HasSecrets, unmarked: str | None) -> str | None:
    """Why a resolved value is not sensitive as a whole, or None when it is (and present).

    ``document`` (the plan or state) gives the secrets to hide, asked for only on a
    failure: collecting them walks the whole document. ``unmarked`` is added when the
    value is not sensitive and the document records no sensitive marks at all (old
    plans and states), so the failure says why.
    """
    if resolved.sensitive and resolved.status is not ValueStatus.ABSENT:
        return None
    secrets = document.secrets
    if resolved.status is ValueStatus.ABSENT:
        return "expected a sensitive value, but it is " + describe(resolved, secrets)
    if resolved.status is ValueStatus.KNOWN and contains_sensitive(resolved.value_sensitive):
        return "expected a sensitive value, but only parts of it are sensitive: " + render_known(
            resolved, secrets
        )
    text = "expected a sensitive value, but it is not sensitive; it is " + describe(resolved, secrets)
    if unmarked is not None:
        text += f" ({unmarked})"
    return text
