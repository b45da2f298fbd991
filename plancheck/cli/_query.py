"""What ``tfplancheck query`` prints, and what every command says its verdicts stand on.

``query`` looks up a plan's addresses, or the value at a path, redacted: ``output.NAME`` addresses an output
change, anything else a resource change; unknown values show as ``(known after apply)``, sensitive ones as
``(sensitive)``; every address shown goes through :func:`plancheck._documents.sensitive.shown_address` (a
``for_each`` key can be a secret), and the address column is laid out on what is shown, so its width tells
nothing. :func:`plan_notes` and :func:`plan_summary` say what a plan's verdicts stand on (a partial plan, one
that is not complete or not applyable), in every command's output. Split from ``_output.py``, which prints
check results in every format.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from tfjsonpath import Path

from .._checking.equality import union_marks
from .._documents.plan import Change, Plan, ResourceNotFoundError, invocation_entries
from .._documents.resolve import PARTLY_UNKNOWN, ResolvedValue, ValueStatus, resolve_value
from .._documents.sensitive import shown_address
from .._redact import KNOWN_AFTER_APPLY, Marks, contains_sensitive, render_value, with_unknowns
from .._text import one_line, quote
from ._io import SCHEMA_VERSION, CliError, plan_notes, plan_summary

__all__ = [
    "LABELS",
    "QUERY_HELP",
    "UNKNOWN_TEXT",
    "list_document",
    "query_change",
    "render_list",
    "render_planned",
    "render_value_document",
    "resolve",
    "shown_with_notes",
    "value_document",
]


UNKNOWN_TEXT: Final = KNOWN_AFTER_APPLY

#: The examples of ``tfplancheck query --help``.
QUERY_HELP: Final = """\
examples:
  tfplancheck query plan.json                                  # every address with its actions
  tfplancheck query plan.json null_resource.a                  # the whole planned value
  tfplancheck query plan.json null_resource.a 'triggers["k"]'  # one value, with its status
  tfplancheck query plan.json output.id                        # an output
  tfplancheck query plan.json null_resource.a id --before      # the value before the change
"""
# A string no plan holds: stands in for unknown values so render_value can lay them out, then is replaced.
_PLACEHOLDER: Final = "\x00tfplancheck-unknown\x00"
_PLACEHOLDER_JSON: Final = '"\\u0000tfplancheck-unknown\\u0000"'


def query_change(plan: Plan, address: str) -> Change:
    """The change at ``address`` (``output.NAME`` for an output); CliError naming close addresses if absent, or the
    reason Terraform deferred it (a deferred change is planned no further: it has no value to show).

    >>> query_change(Plan.from_dict({"format_version": "1.2", "deferred_changes": [{"reason": "instance_count_unknown",
    ...     "resource_change": {"address": "a.b[*]", "index_unknown": True, "change": {"actions": ["create"]}}}]}), "a.b[*]")
    Traceback (most recent call last):
    ...
    plancheck.cli._io.CliError: resource 'a.b[*]' has no planned value: it is deferred with reason "instance_count_unknown"
    """
    try:
        if address.startswith("output.") and not plan.has_resource_change(address):
            return plan.output_change(address[len("output.") :]).change
        return plan.resource_change(address).change
    except ResourceNotFoundError as exc:
        reasons = [d.reason for d in plan.deferred_changes if d.resource_change.raw.get("address") == address]
        if reasons and exc.noun == "resource":
            message = f"resource {exc.address!r} has no planned value: it is deferred with reason {quote(reasons[0])}"
            raise CliError("usage", message) from None
        raise CliError("usage", str(exc)) from None


def render_planned(value: Any, unknown: Marks, sensitive: Marks, plan: Plan) -> str:
    """A planned value as text: sensitive parts ``(sensitive)``, unknown parts ``(known after apply)``.

    >>> plan = Plan.from_dict({"format_version": "1.0"})
    >>> render_planned({"a": "x"}, {"id": True}, {"a": True}, plan)
    '{"a": (sensitive), "id": (known after apply)}'
    """
    text = render_value(with_unknowns(value, unknown, _PLACEHOLDER), sensitive, plan.secrets)
    return text.replace(_PLACEHOLDER_JSON, UNKNOWN_TEXT)


def _sides(change: Change, before: bool) -> tuple[Any, Marks, Marks]:
    if before:
        return change.before, None, change.before_sensitive
    return change.after, change.after_unknown, change.after_sensitive


def resolve(plan: Plan, address: str, path: Path, before: bool, *, shown: bool = False) -> ResolvedValue:
    """Resolve ``path`` in the after (or before) value of ``address``.

    ``shown``: under the marks of both sides (``before_sensitive`` and ``after_sensitive``), as the
    value is shown: a value marked on either side of a change is ``(sensitive)`` on both.
    """
    change = query_change(plan, address)
    value, unknown, sensitive = _sides(change, before)
    if shown:
        sensitive = union_marks(value, [change.before_sensitive, change.after_sensitive])
    return resolve_value(value, unknown, sensitive, path)


def value_document(plan: Plan, address: str, path: Path, before: bool) -> dict[str, Any]:
    """What ``query PLAN ADDRESS [PATH]`` reports, as a JSON-ready dict (kind ``value``)."""
    resolved = resolve(plan, address, path, before)
    # What is shown of the value, its reason's hints included (the keys near a missing one), is under both sides' marks.
    shown = resolve(plan, address, path, before, shown=True)
    if resolved.status is ValueStatus.UNKNOWN:
        text = UNKNOWN_TEXT
    elif resolved.status is ValueStatus.KNOWN:
        text = render_planned(shown.value, shown.value_unknown, True if shown.sensitive else shown.value_sensitive, plan)
    elif resolved.status is ValueStatus.NULL:
        text = "null"
    else:
        text = ""
    return {
        "schema_version": SCHEMA_VERSION,
        "kind": "value",
        "ok": True,
        "address": shown_address(address, plan.secrets),
        "path": path.to_text(),
        "of": "before" if before else "after",
        "status": resolved.status.value,
        "unknown": resolved.unknown,
        "partly_unknown": resolved.partly_unknown,
        "sensitive": resolved.sensitive,
        "partly_sensitive": (not resolved.sensitive) and contains_sensitive(resolved.value_sensitive),
        "reason": shown.why(plan.secrets) or None,
        "value": plan.secrets.scrub(text) if text else None,
        "plan": plan_summary(plan),
    }


#: The labels the text of :func:`render_value_document` writes around a value (``null_resource.a (after)``,
#: ``status:    known``): the command's words, trusted by the scrub of that text. A short secret spelled like one
#: of their words (``after``, ``known``, ``yes``) made the header read ``null_resource.a ((sensitive))`` and the
#: status ``(sensitive)``, misleading and hiding nothing; where it stands elsewhere, or is a whole label, it is
#: scrubbed as always.
LABELS: Final = (
    "(after)", "(before)", f", {PARTLY_UNKNOWN}",
    *(f"status:    {status.value}" for status in ValueStatus),
    *(f"sensitive: {word}" for word in ("yes", "partly", "no")),
)  # fmt: skip


def render_value_document(doc: Mapping[str, Any]) -> str:
    """The text form of :func:`value_document`; its address and path on one line (their keys are scrubbed already)."""
    where = one_line(doc["address"] + (f" {doc['path']}" if doc["path"] else ""))
    status = doc["status"]
    if doc["partly_unknown"]:
        status += f", {PARTLY_UNKNOWN}"
    if doc["reason"]:
        status += f" ({doc['reason']})"
    if doc["sensitive"]:
        sensitive = "yes"
    elif doc["partly_sensitive"]:
        sensitive = "partly"
    else:
        sensitive = "no"
    lines = [f"{where} ({doc['of']})", f"  status:    {status}", f"  sensitive: {sensitive}"]
    if doc["value"] is not None:
        lines.append(f"  value:     {doc['value']}")
    return "\n".join(lines)


def list_document(plan: Plan) -> dict[str, Any]:
    """Every resource change and output change with its actions (kind ``addresses``), addresses as shown; the
    deferred resource changes (Terraform 1.9+) with their reasons, and the action invocations (Terraform 1.14+) with
    their triggers, when there are some.

    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [{"address": 'a.b["pw-1234"]',
    ...     "change": {"actions": ["create"], "after": {"pw": "pw-1234"}, "after_sensitive": {"pw": True}}}]})
    >>> [r["address"] for r in list_document(plan)["resource_changes"]]
    ['a.b["(sensitive)"]']
    """
    secrets = plan.secrets
    resources = [
        {
            "address": shown_address(rc.address, secrets),
            "actions": list(rc.actions),
            **({"deposed": rc.deposed} if rc.deposed else {}),
        }
        for rc in plan.resource_changes
    ]
    outputs = [{"address": f"output.{name}", "actions": list(oc.actions)} for name, oc in plan.output_changes.items()]
    deferred = [
        {
            "address": shown_address(rc.address, secrets),
            "actions": list(rc.actions),
            **({"deposed": rc.deposed} if rc.deposed else {}),
            "deferred": d.reason,
        }
        for d in plan.deferred_changes
        for rc in (d.resource_change,)
    ]
    return {
        "schema_version": SCHEMA_VERSION,
        "kind": "addresses",
        "ok": True,
        "plan": plan.source,
        # ``plan`` is the source's name in schema 1 (a string): the flag a reader needs stands beside it.
        "partial": plan.partial,
        "resource_changes": resources,
        "output_changes": outputs,
        # Present only when there are some, so the documents of plans without them do not change.
        **({"deferred_changes": deferred} if deferred else {}),
        # Terraform 1.14+: present only when the plan invokes an action, so older plans' documents do not change.
        **({"action_invocations": invocations} if (invocations := invocation_entries(plan)) else {}),
    }


def _list_label(row: Mapping[str, Any]) -> str:
    """A listed address with what sets it apart: a deposed object's key, an invocation's trigger, a deferral's reason.

    >>> _list_label({"address": "action.a.b", "trigger": "AfterCreate of x.y", "deferred": "provider_config_unknown"})
    'action.a.b (AfterCreate of x.y; deferred: provider_config_unknown)'
    >>> _list_label({"address": "a.b[*]", "deferred": "instance_count_unknown"})
    'a.b[*] (deferred: instance_count_unknown)'
    """
    notes = [f"deposed {row['deposed']}"] if "deposed" in row else []
    if "trigger" in row:
        notes.append(str(row["trigger"]))
    if "deferred" in row:
        notes.append(f"deferred: {row['deferred']}")
    return str(row["address"]) + (f" ({'; '.join(notes)})" if notes else "")


def render_list(doc: Mapping[str, Any]) -> str:
    """The text form of :func:`list_document`: one address and its actions per line (keys scrubbed already), then
    each deferred change (``ADDRESS (deferred: REASON)  create``) and each action invocation:
    ``ADDRESS (AfterCreate of ADDRESS)  invoke``."""
    rows = [
        (one_line(_list_label(r)), r["actions"])
        for r in [
            *doc["resource_changes"], *doc["output_changes"], *doc.get("deferred_changes", ()),
            *doc.get("action_invocations", ()),
        ]
    ]
    if not rows:
        return "(the plan has no resource or output changes)"
    width = max(len(address) for address, _ in rows)
    return "\n".join(f"{address.ljust(width)}  {', '.join(actions) or '(none)'}" for address, actions in rows)


def shown_with_notes(text: str, plan: Plan) -> str:
    """``text`` (a query's answer) after what it stands on, as the main command says it: a ``NOTE`` line for a partial plan.

    >>> print(shown_with_notes("null_resource.a  create", Plan.from_dict({"format_version": "1.2", "errored": True},
    ...                                                                    allow_errored=True)))
    NOTE  the plan is partial: planning failed ("errored": true), so it holds only what Terraform planned before the error
    null_resource.a  create
    """
    return "\n".join([*(f"NOTE  {note}" for note in plan_notes(plan, quiet=True)), text])
