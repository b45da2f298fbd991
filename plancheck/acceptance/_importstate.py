"""Import steps: Go's ``ImportStateVerify`` comparison on flattened attributes, and the ``import`` blocks.

Go compares the imported resource with the applied one on the legacy "flatmap" form of their
attributes (``tags.%`` = ``"1"``, ``tags.env`` = ``"test"``, ``list.#``, ``list.0``, ...), after
dropping empty collections' counts, ``timeouts`` and every key starting with an ignored prefix.
This module builds that form from ``terraform show -json`` values, keeping, for each key,
whether the value lies under a sensitive mark, so that a difference never shows a secret.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any, Final

from .._frozen import FrozenValue, frozen
from .._redact import SENSITIVE as REDACTED
from .._text import exception_message

__all__ = [
    "VERIFY_HEADER",
    "Flat",
    "call_check",
    "flatmap",
    "import_block",
    "import_block_with_identity",
    "state_resources",
    "verify_import",
]

VERIFY_HEADER: Final = (
    "ImportStateVerify attributes not equivalent. Difference is shown below. "
    "The - symbol indicates attributes missing after import."
)


@frozen
class Flat(FrozenValue):
    """One flattened attribute: its text (as Go's flatmap has it) and whether it is sensitive."""

    text: str
    sensitive: bool

    def shown(self) -> str:
        return REDACTED if self.sensitive else json.dumps(self.text, ensure_ascii=False)


def _missing_identifier(which: str, attribute: str) -> str:
    return (
        f"ImportStateVerify: {which} resource missing identifier attribute {attribute!r}, ensure attribute "
        "value is properly set or use import_state_verify_identifier_attribute to choose different attribute"
    )


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return format(value.normalize(), "f") if value == value.to_integral_value() else str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _mark(marks: Any, key: str | int) -> Any:
    if marks is True:
        return True
    if isinstance(marks, Mapping) and isinstance(key, str):
        return marks.get(key)
    if isinstance(marks, list) and isinstance(key, int) and 0 <= key < len(marks):
        return marks[key]
    return None


def flatmap(values: Any, marks: Any = None) -> dict[str, Flat]:
    """The flatmap form of a resource's ``values``, with ``sensitive_values`` marks (``marks``).

    Nulls are left out; maps and objects get a ``.%`` count, lists and sets a ``.#`` count.

    >>> flat = flatmap({"id": "w-1", "size": Decimal("3"), "tags": {"env": "test"}, "pw": "x", "n": None},
    ...                {"pw": True})
    >>> {k: (v.text, v.sensitive) for k, v in sorted(flat.items())}
    {'id': ('w-1', False), 'pw': ('x', True), 'size': ('3', False), 'tags.%': ('1', False), 'tags.env': ('test', False)}
    """
    result: dict[str, Flat] = {}
    if not isinstance(values, Mapping):
        return result
    # (prefix, value, marks, inherited sensitivity): iterative, so deep values cannot hit RecursionError.
    stack: list[tuple[str, Any, Any, bool]] = [
        (str(k), v, _mark(marks, str(k)), False) for k, v in values.items()
    ]
    while stack:
        key, value, mark, inherited = stack.pop()
        sensitive = inherited or mark is True
        if value is None:
            continue
        if isinstance(value, Mapping):
            result[f"{key}.%"] = Flat(str(len(value)), sensitive)
            stack.extend((f"{key}.{k}", v, _mark(mark, str(k)), sensitive) for k, v in value.items())
        elif isinstance(value, list):
            result[f"{key}.#"] = Flat(str(len(value)), sensitive)
            stack.extend((f"{key}.{i}", v, _mark(mark, i), sensitive) for i, v in enumerate(value))
        else:
            result[key] = Flat(_scalar(value), sensitive)
    return result


def _comparable(flat: Mapping[str, Flat], ignore: Sequence[str]) -> dict[str, Flat]:
    kept: dict[str, Flat] = {}
    for key, value in flat.items():
        if (key.endswith(".#") or key.endswith(".%")) and value.text == "0":
            continue
        if key == "timeouts" or key.startswith("timeouts."):
            continue
        if any(key.startswith(prefix) for prefix in ignore):
            continue
        kept[key] = value
    return kept


def _resource_key(resource: Mapping[str, Any]) -> tuple[Any, Any]:
    return resource.get("type"), resource.get("provider_name")


def _managed(resources: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [r for r in resources if r.get("mode", "managed") == "managed"]


def verify_import(
    applied: Sequence[Mapping[str, Any]],
    imported: Sequence[Mapping[str, Any]],
    *,
    identifier_attribute: str = "id",
    ignore: Sequence[str] = (),
    address: str | None = None,
) -> str | None:
    """Go's ``ImportStateVerify``: the failure message, or None when every imported resource matches.

    ``applied`` and ``imported`` are the resources of the two states, of every module (as in
    ``terraform show -json``, see :func:`state_resources`); each imported one is compared with
    the applied one of the same type and provider whose ``identifier_attribute`` is the same.
    Every difference is named, a sensitive value shows as ``(sensitive)``. With ``address``
    (the step's ``resource_name``), that resource must be among the imported ones: nothing
    compared is a failure, never a pass.

    >>> old = [{"address": "w.t", "type": "w", "values": {"id": "1", "name": "a", "pw": "s"}, "sensitive_values": {"pw": True}}]
    >>> new = [{"address": "w.t", "type": "w", "values": {"id": "1", "name": "b", "pw": "z"}, "sensitive_values": {"pw": True}}]
    >>> print(verify_import(old, new))
    ImportStateVerify attributes not equivalent. Difference is shown below. The - symbol indicates attributes missing after import.
    <BLANKLINE>
    w.t:
    - "name": "a"
    + "name": "b"
    - "pw": (sensitive)
    + "pw": (sensitive)
    >>> verify_import(old, new, ignore=["name", "pw"]) is None
    True
    >>> print(verify_import(old, [], address="module.child.w.t"))
    ImportStateVerify: resource module.child.w.t not found in the state after import (it has no managed resources)
    """
    if address is not None:
        missing = _missing(address, imported)
        if missing is not None:
            return missing
    problems: list[str] = []
    for new in _managed(imported):
        new_flat = flatmap(new.get("values"), new.get("sensitive_values"))
        identifier = new_flat.get(identifier_attribute)
        if identifier is None:
            return _missing_identifier("New", identifier_attribute)
        old_flat: dict[str, Flat] | None = None
        for old in _managed(applied):
            if _resource_key(old) != _resource_key(new):
                continue
            candidate = flatmap(old.get("values"), old.get("sensitive_values"))
            old_identifier = candidate.get(identifier_attribute)
            if old_identifier is None:
                return _missing_identifier("Old", identifier_attribute)
            if old_identifier.text == identifier.text:
                old_flat = candidate
                break
        if old_flat is None:
            shown = identifier.shown() if identifier.sensitive else identifier.text
            return f"Failed state verification, resource with ID {shown} not found"
        lines = _differences(_comparable(old_flat, ignore), _comparable(new_flat, ignore))
        if lines:
            problems.append(f"{new.get('address', '?')}:\n" + "\n".join(lines))
    if not problems:
        return None
    return VERIFY_HEADER + "\n\n" + "\n".join(problems)


def _missing(address: str, imported: Sequence[Mapping[str, Any]]) -> str | None:
    """The failure when ``address`` is not among the ``imported`` managed resources, else None."""
    found = [str(r.get("address", "?")) for r in _managed(imported)]
    if address in found:
        return None
    has = "it has " + ", ".join(sorted(found)) if found else "it has no managed resources"
    return f"ImportStateVerify: resource {address} not found in the state after import ({has})"


def state_resources(document: Mapping[str, Any], key: str = "values") -> list[Mapping[str, Any]]:
    """The resources of every module of a ``show -json`` document's ``key`` (``values``, ``planned_values``).

    Child modules are walked without recursion, so a deep module tree cannot hit RecursionError.

    >>> doc = {"values": {"root_module": {"resources": [{"address": "a.b"}],
    ...        "child_modules": [{"resources": [{"address": "module.m.a.b"}]}]}}}
    >>> [r["address"] for r in state_resources(doc)]
    ['a.b', 'module.m.a.b']
    """
    values = document.get(key)
    root = values.get("root_module") if isinstance(values, Mapping) else None
    found: list[Mapping[str, Any]] = []
    pending: list[Any] = [root]
    while pending:
        module = pending.pop(0)
        if not isinstance(module, Mapping):
            continue
        resources = module.get("resources")
        if isinstance(resources, list):
            found.extend(r for r in resources if isinstance(r, Mapping))
        children = module.get("child_modules")
        if isinstance(children, list):
            pending.extend(children)
    return found


def _differences(expected: Mapping[str, Flat], actual: Mapping[str, Flat]) -> list[str]:
    lines: list[str] = []
    for key in sorted(set(expected) | set(actual)):
        old, new = expected.get(key), actual.get(key)
        if old is not None and new is not None and old.text == new.text:
            continue
        # A value sensitive on either side is hidden on both, so a secret cannot leak from the other side.
        hide = (old is not None and old.sensitive) or (new is not None and new.sensitive)
        quoted = json.dumps(key, ensure_ascii=False)
        for sign, flat in (("-", old), ("+", new)):
            if flat is not None:
                shown = REDACTED if hide else flat.shown()
                lines.append(f"{sign} {quoted}: {shown}")
    return lines


def _hcl_string(text: str) -> str:
    # JSON string syntax is valid HCL for these characters; "${" and "%{" must not start a template.
    return json.dumps(text, ensure_ascii=False).replace("${", "$${").replace("%{", "%%{")


def import_block(address: str, import_id: str) -> str:
    """An ``import`` block (Go's ``appendImportBlock``).

    >>> print(import_block("widget_thing.t", "w-0001"))
    import {
      to = widget_thing.t
      id = "w-0001"
    }
    <BLANKLINE>
    """
    return f"import {{\n  to = {address}\n  id = {_hcl_string(import_id)}\n}}\n"


def import_block_with_identity(address: str, identity: Mapping[str, Any]) -> str:
    """An ``import`` block naming the resource by its identity (Go's ``appendImportBlockWithIdentity``).

    >>> print(import_block_with_identity("widget_thing.t", {"id": "w-1", "n": Decimal("2"), "on": True, "x": None}))
    import {
      to = widget_thing.t
      identity = {
        "id" = "w-1"
        "n" = 2
        "on" = true
      }
    }
    <BLANKLINE>
    """
    lines = ["import {", f"  to = {address}", "  identity = {"]
    for key, value in identity.items():
        if value is None:
            continue
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, (int, float, Decimal)):
            text = _scalar(value)
        elif isinstance(value, list):
            text = "[" + ", ".join(_hcl_string(str(v)) for v in value) + "]"
        else:
            text = _hcl_string(str(value))
        lines.append(f"    {_hcl_string(str(key))} = {text}")
    lines.extend(["  }", "}", ""])
    return "\n".join(lines)


def call_check(function: Callable[..., object], *args: Any) -> str | None:
    """Call a Go-style check function: the failure text, or None when it passed.

    It fails by raising ``AssertionError`` or by returning an exception (Go's ``error`` return).

    >>> call_check(lambda state: None, {}) is None
    True
    >>> call_check(lambda state: ValueError("no widget"), {})
    'no widget'
    >>> def fails(state):
    ...     assert state, "empty state"
    >>> call_check(fails, {})
    'empty state'
    """
    try:
        returned = function(*args)
    except AssertionError as exc:
        return exception_message(exc) or type(exc).__name__
    if isinstance(returned, BaseException):
        return exception_message(returned) or type(returned).__name__
    return None
