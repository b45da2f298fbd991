"""The views of a document's parts: a plan's resource changes (their ``change``), output changes, deferrals and
action invocations; a state's resources and outputs; and what a resource change and a state's resource share
(:class:`ResourceFields`).

A view reads its JSON object in place. Built by hand, its constructor validates the object as the loader validates
it inside a document (:func:`plancheck._loading.load.entry`), so one that is no such entry is a typed error naming
the view and where: ``ResourceChange: $.change.actions: ...``. A plan and a state build their views through
:meth:`DocumentView._of`, unchecked: the document was validated whole.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar, Final, TypeVar, final

from tfjsonpath import MapStep, Path, SliceStep, Step
from tfjsonpath._text import MAX_INDEX

from .._errors import ArgumentError, TfCheckError
from .._frozen import ReadOnly, public
from .._loading.load import PLAN, STATE, entry
from .._loading.location import PathKey
from .._redact import Marks, Secrets, contains_sensitive
from .actions import ActionTriggerEvent
from .sensitive import HasSecrets, marked_strings, shown_address

__all__ = [
    "ActionInvocation",
    "Change",
    "DeferredActionInvocation",
    "DeferredChange",
    "DocumentView",
    "NotPicklableError",
    "OutputChange",
    "ResourceChange",
    "ResourceFields",
    "StateOutput",
    "StateResource",
    "full_address",
    "replace_step",
    "require_name",
]

_EMPTY: Mapping[str, Any] = {}
_E = TypeVar("_E", bound="_PlanEntry")


class ResourceFields:
    """Read-only ``mode``/``type``/``name``/``index``/``provider_name`` over a ``raw`` JSON object.

    Both Terraform's plan (``resource_changes``) and state (``resources``) write these the same way.

    >>> class R(ResourceFields):
    ...     __slots__ = ("raw",)
    ...     def __init__(self, raw): self.raw = raw
    >>> R({"mode": "managed", "type": "null_resource", "name": "a", "index": 0}).index
    0
    """

    __slots__ = ()
    raw: Mapping[str, Any]

    @property
    def mode(self) -> str | None:
        """``managed`` or ``data``."""
        return self.raw.get("mode")

    @property
    def type(self) -> str | None:
        """The resource type, e.g. ``null_resource``."""
        return self.raw.get("type")

    @property
    def name(self) -> str | None:
        """The resource name, e.g. ``a``."""
        return self.raw.get("name")

    @property
    def index(self) -> Any:
        """The count index (int) or for_each key (str), or None."""
        return self.raw.get("index")

    @property
    def provider_name(self) -> str | None:
        """The provider address, e.g. ``registry.terraform.io/hashicorp/null``."""
        return self.raw.get("provider_name")


def replace_step(raw: Any) -> Step | None:
    """A step of a ``replace_paths`` entry as a Path step, or None where no Path can hold it.

    Terraform writes attribute names and map keys as strings, list indexes as numbers, and a step
    into a set as the set element itself; a number no list index can be (below 0, above 2**63 - 1)
    is no step either, whatever wrote it.

    >>> replace_step("triggers"), replace_step(0), replace_step({"port": 80}), replace_step(2**64)
    (MapStep('triggers'), SliceStep(0), None, None)
    """
    if isinstance(raw, str):
        return MapStep(raw)
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw <= MAX_INDEX:
        return SliceStep(raw)
    return None


@public("plancheck")
class NotPicklableError(TfCheckError, TypeError):
    """A view of part of a document (a resource change, a state resource, ...) was pickled: a view does not pickle;
    or a Plan or State was, whose document does not (``problem`` says why, else None).

    A view reads its document (and the document's secrets) in place; its document pickles. ``what`` names the
    view's class, or Plan or State.

    >>> import pickle
    >>> pickle.dumps(Change({"actions": ["create"]}))
    Traceback (most recent call last):
    ...
    plancheck.NotPicklableError: a Change does not pickle: it is a view of part of a plan or state, read in place; pickle the Plan or State itself (it pickles as its document) and take the Change from it again
    >>> from types import MappingProxyType
    >>> from plancheck import Plan
    >>> pickle.dumps(Plan(MappingProxyType({"format_version": "1.2"})))
    Traceback (most recent call last):
    ...
    plancheck.NotPicklableError: a Plan does not pickle: its document holds a value that does not pickle (a dict, list, str, number, bool or None does)
    """

    def __init__(self, what: str, problem: str | None = None) -> None:
        self.what = what
        self.problem = problem
        if problem is not None:
            super().__init__(f"a {what} does not pickle: its document {problem}")
            return
        super().__init__(f"a {what} does not pickle: it is a view of part of a plan or state, read in place; "
                         f"pickle the Plan or State itself (it pickles as its document) and take the {what} from it again")


class DocumentView(ReadOnly):
    """A read-only view of part of a document: it compares by identity and refuses to pickle
    (:class:`NotPicklableError`), as a copy of it is itself.

    >>> import copy
    >>> change = Change({"actions": []})
    >>> copy.copy(change) is change, isinstance(change, DocumentView)
    (True, True)

    Each view has a private constructor, ``_of``, taking what its constructor takes: a plan and a state (and a
    view, its parts) build their views with it, not checked again, as their document was validated whole; a
    constructor's check would be work done twice, once per resource.

    >>> ResourceChange._of({"address": "a.b", "change": {"actions": ["create"]}}, None).actions
    ('create',)
    """

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        # The default pickle fills a new view's slots by setattr, which a read-only one refuses only when loading
        # (a resource change's document is all of its plan): refused here, when pickling, saying what pickles.
        raise NotPicklableError(type(self).__name__)


@public("plancheck")
@final
class Change(DocumentView):
    """The ``change`` object of a resource or output change.

    >>> c = Change({"actions": ["create"], "before": None, "after": {"a": 1}, "after_unknown": {"id": True}})
    >>> c.actions, c.after, c.after_unknown
    (('create',), {'a': 1}, {'id': True})
    """

    __slots__ = ("raw",)
    raw: Mapping[str, Any]

    def __init__(self, raw: Mapping[str, Any]) -> None:
        entry(PLAN, raw, "Change", ("resource_changes", 0, "change"))
        self._set(raw=raw)

    @classmethod
    def _of(cls, raw: Mapping[str, Any]) -> Change:
        view = cls.__new__(cls)
        view._set(raw=raw)
        return view

    @property
    def actions(self) -> tuple[str, ...]:
        """The planned actions, e.g. ``('delete', 'create')``."""
        return tuple(self.raw.get("actions") or ())

    @property
    def before(self) -> Any:
        """The value before the change (None when absent)."""
        return self.raw.get("before")

    @property
    def after(self) -> Any:
        """The planned value, unknown parts omitted (None when absent)."""
        return self.raw.get("after")

    @property
    def after_unknown(self) -> Marks:
        """Marks of the values unknown until apply (``true`` at a value or an ancestor)."""
        return self.raw.get("after_unknown")

    @property
    def before_sensitive(self) -> Marks:
        """Sensitive marks of ``before``."""
        return self.raw.get("before_sensitive")

    @property
    def after_sensitive(self) -> Marks:
        """Sensitive marks of ``after``."""
        return self.raw.get("after_sensitive")

    @property
    def replace_paths(self) -> tuple[Path, ...]:
        """The attribute paths that force replacement, as tfjsonpath Paths.

        Terraform writes a step into a set as the set element itself (an object), which a
        Path cannot hold: such a path ends at the set attribute. ``raw["replace_paths"]``
        keeps the exact steps.

        >>> Change({"actions": ["delete", "create"], "replace_paths": [["triggers", "a"], ["tags", {"k": "v"}, "x"]]}).replace_paths
        (Path(MapStep('triggers'), MapStep('a')), Path(MapStep('tags')))
        """
        out = []
        for raw_path in self.raw.get("replace_paths") or ():
            steps: list[Step] = []
            for raw_step in raw_path:
                step = replace_step(raw_step)
                if step is None:
                    break
                steps.append(step)
            out.append(Path(*steps))
        return tuple(out)

    @property
    def importing(self) -> Mapping[str, Any] | None:
        """The ``importing`` object of an import, or None."""
        return self.raw.get("importing")

    @property
    def before_identity(self) -> Mapping[str, Any] | None:
        """The resource identity before the change (Terraform 1.12+), or None when the plan has none.

        >>> Change({"actions": ["update"], "before_identity": {"id": "i-1"}, "after_identity": {"id": "i-1"}}).before_identity
        {'id': 'i-1'}
        """
        return self.raw.get("before_identity")

    @property
    def after_identity(self) -> Mapping[str, Any] | None:
        """The planned resource identity (Terraform 1.12+), or None when the plan has none.

        >>> Change({"actions": ["create"]}).after_identity is None
        True
        """
        return self.raw.get("after_identity")

    def __repr__(self) -> str:
        return f"<Change actions={list(self.actions)!r}>"


def require_name(owner: str, what: str, value: object) -> None:
    """Refuse a look-up by anything but a str with a TypeError naming ``owner`` (not a bare one from inside the index).

    >>> require_name("Plan.resource_change", "an address", None)
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: Plan.resource_change expects an address (str), got NoneType
    """
    if not isinstance(value, str):
        raise ArgumentError(f"{owner} expects {what} (str), got {type(value).__name__}")


def _own_secrets(raw: Any, sides: tuple[tuple[str, str], ...]) -> Secrets:
    """The secrets an entry holds itself (each ``(values, marks)`` key pair of ``raw``), for one built without
    its plan: a resource change's ``change`` sides, an action invocation's configuration."""
    found: list[str] = []
    if isinstance(raw, Mapping):
        for values, marks in sides:
            found.extend(marked_strings(raw.get(values), raw.get(marks)))
    return Secrets(found)


_CHANGE_SIDES: Final = (("before", "before_sensitive"), ("after", "after_sensitive"))
_CONFIG_SIDES: Final = (("config_values", "config_sensitive"),)


class _PlanEntry(DocumentView):
    """An entry of one of a plan's lists: its ``raw`` JSON object, and ``document``, what knows the secrets its
    repr hides (a plan passes its :class:`~plancheck._documents.plan.DocumentSecrets`); None for one built alone."""

    __slots__ = ("_document", "raw")
    raw: Mapping[str, Any]
    _document: HasSecrets | None
    #: Where such an entry stands in a plan: the schema it is checked with, and a place for its secrets.
    _AT: ClassVar[PathKey]

    def __init__(self, raw: Mapping[str, Any], document: HasSecrets | None = None) -> None:
        entry(PLAN, raw, type(self).__name__, self._AT)
        self._set(raw=raw, _document=document)

    @classmethod
    def _of(cls: type[_E], raw: Mapping[str, Any], document: HasSecrets | None) -> _E:
        view = cls.__new__(cls)
        view._set(raw=raw, _document=document)
        return view


class _Deferred(_PlanEntry):
    """An entry Terraform deferred (a resource change, an action invocation), and why."""

    __slots__ = ()

    @property
    def reason(self) -> str:
        """The deferral reason as Terraform writes it, e.g. ``resource_config_unknown``."""
        return str(self.raw.get("reason", ""))


@public("plancheck")
@final
class ResourceChange(ResourceFields, _PlanEntry):
    """One entry of ``resource_changes`` (or ``resource_drift``).

    ``document`` is what knows the secrets of its plan (anything with a ``secrets`` attribute, as a plan or a
    state; a plan passes what knows its own, not itself, see :class:`~plancheck._documents.plan.DocumentSecrets`): the repr shows the address
    through them (:func:`shown_address`), asked for only then. One built alone knows only the secrets it holds.

    >>> rc = ResourceChange({"address": "null_resource.a[0]", "type": "null_resource", "change": {"actions": ["create"]}})
    >>> rc.address, rc.actions, rc.index
    ('null_resource.a[0]', ('create',), None)
    >>> from types import SimpleNamespace
    >>> ResourceChange({"address": 'a.b["pw-1234"]', "change": {"actions": []}}, SimpleNamespace(secrets=Secrets(["pw-1234"])))
    <ResourceChange a.b["(sensitive)"] actions=[]>

    An object that is no resource change is a :class:`~plancheck.PlanFormatError` naming the view and where:

    >>> ResourceChange({"address": "a.b", "change": {"actions": "create"}})
    Traceback (most recent call last):
    ...
    plancheck.PlanFormatError: ResourceChange: $.change.actions: expected an array of actions, found a string
    """

    __slots__ = ()
    _AT = ("resource_changes", 0)

    @property
    def address(self) -> str:
        """The full address, e.g. ``module.child.aws_instance.foo[0]``."""
        return str(self.raw["address"])

    @property
    def previous_address(self) -> str | None:
        """The address before a ``moved`` block took effect, if any."""
        return _str_or_none(self.raw.get("previous_address"))

    @property
    def module_address(self) -> str | None:
        """The module address, e.g. ``module.child``; None in the root module."""
        return _str_or_none(self.raw.get("module_address"))

    @property
    def deposed(self) -> str | None:
        """The deposed key of a deposed object, or None for the current object."""
        return _str_or_none(self.raw.get("deposed"))

    @property
    def action_reason(self) -> str | None:
        """Why the action was chosen, e.g. ``replace_because_cannot_update``."""
        return _str_or_none(self.raw.get("action_reason"))

    @property
    def change(self) -> Change:
        """The ``change`` object."""
        # As checked with this entry (a plan's, or the constructor's); an unvalidated plan's reads as no change.
        return Change._of(self.raw.get("change") or _EMPTY)

    @property
    def actions(self) -> tuple[str, ...]:
        """Shortcut for ``change.actions``."""
        return self.change.actions

    def __repr__(self) -> str:
        deposed = f" deposed={self._secrets().scrub(self.deposed)!r}" if self.deposed else ""
        return f"<ResourceChange {self._shown_address()}{deposed} actions={list(self.actions)!r}>"

    def _secrets(self) -> Secrets:
        document = self._document
        return _own_secrets(self.raw.get("change"), _CHANGE_SIDES) if document is None else document.secrets

    def _shown_address(self) -> str:
        """The address, redacted with the document's secrets: an instance key can be one."""
        return shown_address(self.address, self._secrets())


@public("plancheck")
@final
class OutputChange(DocumentView):
    """One entry of ``output_changes``: a named Change.

    >>> OutputChange("ip", {"actions": ["create"], "after_unknown": True}).change.after_unknown
    True
    """

    __slots__ = ("name", "raw")
    name: str
    raw: Mapping[str, Any]

    def __init__(self, name: str, raw: Mapping[str, Any]) -> None:
        require_name("OutputChange", "an output name", name)
        entry(PLAN, raw, "OutputChange", ("output_changes", name))
        self._set(name=name, raw=raw)

    @classmethod
    def _of(cls, name: str, raw: Mapping[str, Any]) -> OutputChange:
        view = cls.__new__(cls)
        view._set(name=name, raw=raw)
        return view

    @property
    def change(self) -> Change:
        """The output's Change."""
        return Change._of(self.raw)

    @property
    def actions(self) -> tuple[str, ...]:
        """Shortcut for ``change.actions``."""
        return self.change.actions

    def __repr__(self) -> str:
        return f"<OutputChange {self.name} actions={list(self.actions)!r}>"


@public("plancheck")
@final
class DeferredChange(_Deferred):
    """One entry of ``deferred_changes``: a resource change Terraform deferred, and why.

    ``document`` knows its plan's secrets, as for :class:`ResourceChange`.

    >>> d = DeferredChange({"reason": "provider_config_unknown", "resource_change": {"address": "a.b", "change": {"actions": ["create"]}}})
    >>> d.reason, d.resource_change.address
    ('provider_config_unknown', 'a.b')
    """

    __slots__ = ()
    _AT = ("deferred_changes", 0)

    @property
    def resource_change(self) -> ResourceChange:
        """The deferred resource change."""
        return ResourceChange._of(self.raw.get("resource_change") or _EMPTY, self._document)

    def __repr__(self) -> str:
        return f"<DeferredChange {self.resource_change._shown_address()} reason={self.reason!r}>"


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


@public("plancheck")
@final
class ActionInvocation(_PlanEntry):
    """One entry of ``action_invocations`` (Terraform 1.14+): an action the apply will run, and what triggers it.

    Terraform writes it from ``jsonplan.ActionInvocation``: the action's ``address``, ``type``,
    ``name`` and ``provider_name``; its configuration (``config_values``, unknown parts omitted, with
    the marks trees ``config_unknown`` and ``config_sensitive``, read exactly as a resource's
    ``after``, ``after_unknown`` and ``after_sensitive``); and either a ``lifecycle_action_trigger``
    (a resource's ``lifecycle { action_trigger { ... } }``: the triggering resource, the event, the
    block and list index, 1.16's ``on_failure``) or an ``invoke_action_trigger`` (``-invoke``; 1.16's
    ``calling_resource_address``). ``document`` knows its plan's secrets, as for :class:`ResourceChange`.

    >>> ai = ActionInvocation({"address": "action.aws_lambda_invoke.notify", "type": "aws_lambda_invoke",
    ...     "name": "notify", "config_values": {"payload": "x"}, "config_unknown": {}, "config_sensitive": {},
    ...     "lifecycle_action_trigger": {"triggering_resource_address": "aws_instance.web",
    ...         "action_trigger_event": "AfterCreate", "action_trigger_block_index": 0, "actions_list_index": 1}})
    >>> ai.trigger_event, ai.triggering_resource_address, ai.actions_list_index
    (ActionTriggerEvent.AfterCreate, 'aws_instance.web', 1)
    >>> ai
    <ActionInvocation action.aws_lambda_invoke.notify AfterCreate of aws_instance.web>
    >>> ActionInvocation({"address": 'action.t.n["pw-9911"]', "config_values": {"k": "pw-9911"},
    ...     "config_sensitive": {"k": True}, "invoke_action_trigger": {}})   # built alone: its own secrets
    <ActionInvocation action.t.n["(sensitive)"] Invoke>
    """

    __slots__ = ()
    _AT = ("action_invocations", 0)

    @property
    def address(self) -> str:
        """The action's absolute address, e.g. ``action.aws_lambda_invoke.notify`` or ``module.m.action.t.n[0]``."""
        return str(self.raw.get("address", ""))

    @property
    def type(self) -> str | None:
        """The action type, e.g. ``aws_lambda_invoke``."""
        return _str_or_none(self.raw.get("type"))

    @property
    def name(self) -> str | None:
        """The action's name in its module."""
        return _str_or_none(self.raw.get("name"))

    @property
    def provider_name(self) -> str | None:
        """The provider's source address, e.g. ``registry.terraform.io/hashicorp/aws``."""
        return _str_or_none(self.raw.get("provider_name"))

    @property
    def config_values(self) -> Any:
        """The action's configuration, unknown parts omitted (None when it has none)."""
        return self.raw.get("config_values")

    @property
    def config_unknown(self) -> Marks:
        """Marks of the configuration values unknown until apply."""
        return self.raw.get("config_unknown")

    @property
    def config_sensitive(self) -> Marks:
        """Sensitive marks of the configuration (the schema's sensitive attributes and marked values)."""
        return self.raw.get("config_sensitive")

    @property
    def lifecycle_action_trigger(self) -> Mapping[str, Any] | None:
        """The raw ``lifecycle_action_trigger``, or None for an action invoked directly."""
        value = self.raw.get("lifecycle_action_trigger")
        return value if isinstance(value, Mapping) else None

    @property
    def invoke_action_trigger(self) -> Mapping[str, Any] | None:
        """The raw ``invoke_action_trigger`` (``terraform apply -invoke``), or None."""
        value = self.raw.get("invoke_action_trigger")
        return value if isinstance(value, Mapping) else None

    @property
    def trigger_event(self) -> ActionTriggerEvent | None:
        """The event that triggers the action; ``Invoke`` when invoked directly; None when the plan names no
        event this library knows.

        >>> ActionInvocation({"address": "action.t.n", "invoke_action_trigger": {}}).trigger_event
        ActionTriggerEvent.Invoke
        """
        lifecycle = self.lifecycle_action_trigger
        if lifecycle is None:
            return ActionTriggerEvent.Invoke if self.invoke_action_trigger is not None else None
        event = lifecycle.get("action_trigger_event")
        return ActionTriggerEvent(event) if event in _EVENTS else None

    @property
    def triggering_resource_address(self) -> str | None:
        """The resource whose lifecycle triggers the action, or None for an action invoked directly."""
        return _str_or_none((self.lifecycle_action_trigger or _EMPTY).get("triggering_resource_address"))

    @property
    def calling_resource_address(self) -> str | None:
        """The resource an invoked action is called for (Terraform 1.16's ``calling_resource_address``), or None."""
        return _str_or_none((self.invoke_action_trigger or _EMPTY).get("calling_resource_address"))

    @property
    def action_trigger_block_index(self) -> int | None:
        """Which ``action_trigger`` block of the resource's lifecycle (from 0), or None when invoked directly."""
        return _int_or_none((self.lifecycle_action_trigger or _EMPTY).get("action_trigger_block_index"))

    @property
    def actions_list_index(self) -> int | None:
        """Where in that block's ``actions`` list the action stands (from 0), or None when invoked directly."""
        return _int_or_none((self.lifecycle_action_trigger or _EMPTY).get("actions_list_index"))

    @property
    def on_failure(self) -> str | None:
        """What a failure of the action does (Terraform 1.16: ``ActionOnFailureHalt``, ``...Taint``,
        ``...Continue``), or None when the plan does not say."""
        return _str_or_none((self.lifecycle_action_trigger or _EMPTY).get("on_failure"))

    @property
    def trigger_text(self) -> str:
        """How a message names the trigger: ``AfterCreate of aws_instance.web``; ``Invoke`` for an action invoked
        directly, ``Invoke for a.b`` with a calling resource.

        >>> ActionInvocation({"address": "action.t.n", "invoke_action_trigger": {"calling_resource_address": "a.b"}}).trigger_text
        'Invoke for a.b'
        """
        resource = self.triggering_resource_address
        lifecycle = self.lifecycle_action_trigger
        if lifecycle is not None:
            event = lifecycle.get("action_trigger_event")
            text = str(event) if isinstance(event, str) and event else "an unnamed event"
            return text + (f" of {self._shown(resource)}" if resource else "")
        if self.invoke_action_trigger is not None:
            calling = self.calling_resource_address
            return "Invoke" + (f" for {self._shown(calling)}" if calling else "")
        return "no trigger"

    def _shown(self, address: str) -> str:
        document = self._document
        # One built alone knows only the secrets it holds, as a ResourceChange built alone does.
        return shown_address(address, _own_secrets(self.raw, _CONFIG_SIDES) if document is None else document)

    def _shown_address(self) -> str:
        return self._shown(self.address)

    def __repr__(self) -> str:
        return f"<ActionInvocation {self._shown_address()} {self.trigger_text}>"


_EVENTS: Final = frozenset(e.value for e in ActionTriggerEvent if e is not ActionTriggerEvent.Invoke)


@public("plancheck")
@final
class DeferredActionInvocation(_Deferred):
    """One entry of ``deferred_action_invocations`` (Terraform 1.14+): an action invocation deferred, and why.

    >>> d = DeferredActionInvocation({"reason": "resource_config_unknown",
    ...     "action_invocation": {"address": "action.t.n", "invoke_action_trigger": {}}})
    >>> d.reason, d.action_invocation.address
    ('resource_config_unknown', 'action.t.n')
    """

    __slots__ = ()
    _AT = ("deferred_action_invocations", 0)

    @property
    def action_invocation(self) -> ActionInvocation:
        """The deferred action invocation."""
        return ActionInvocation._of(self.raw.get("action_invocation") or _EMPTY, self._document)

    def __repr__(self) -> str:
        return f"<DeferredActionInvocation {self.action_invocation._shown_address()} reason={self.reason!r}>"


def _instance_key(index: Any) -> str:
    if index is None:
        return ""
    if isinstance(index, str):
        return f"[{json.dumps(index, ensure_ascii=False)}]"
    return f"[{index}]"


def full_address(raw: Mapping[str, Any], module_address: str | None) -> str:
    """The resource's full address. Terraform 0.12.0 wrote state addresses without the module
    path and the instance key (``null_resource.foo`` for ``module.m.null_resource.foo[1]``); those
    are completed from the module's address and the resource's ``index``.

    >>> full_address({"address": "null_resource.foo", "index": 1}, "module.m")
    'module.m.null_resource.foo[1]'
    >>> full_address({"address": 'module.m.a.b["k"]', "index": "k"}, "module.m")
    'module.m.a.b["k"]'
    """
    address = str(raw["address"])
    index = raw.get("index")
    if index is not None and not address.endswith("]"):
        address += _instance_key(index)
    if module_address and not address.startswith(module_address + "."):
        address = f"{module_address}.{address}"
    return address


@public("plancheck")
@final
class StateResource(ResourceFields, DocumentView):
    """One resource instance object of a state (a current or a deposed object).

    ``address`` is the full address (see :func:`full_address` for old states that lack it).
    ``document`` is what knows its state's secrets (a state passes its
    :class:`~plancheck._documents.plan.DocumentSecrets`, not itself): the repr shows the address through them
    (:func:`plancheck._documents.sensitive.shown_address`), asked for only then. One built alone knows only the
    secrets it holds.

    >>> r = StateResource({"address": "null_resource.a[0]", "mode": "managed", "index": 0, "values": {"id": "1"}})
    >>> r.address, r.index, r.values, r.deposed
    ('null_resource.a[0]', 0, {'id': '1'}, None)
    >>> from types import SimpleNamespace
    >>> StateResource({"address": 'a.b["pw-1234"]'}, 'module.m["pw-1234"]', document=SimpleNamespace(secrets=Secrets(["pw-1234"])))
    <StateResource module.m["(sensitive)"].a.b["(sensitive)"]>

    An object that is no state resource is a :class:`~plancheck.StateFormatError` naming the view and where:

    >>> StateResource({"address": "a.b", "tainted": "yes"})
    Traceback (most recent call last):
    ...
    plancheck.StateFormatError: StateResource: $.tainted: expected a bool, found a string
    """

    __slots__ = ("_document", "address", "module_address", "raw")
    raw: Mapping[str, Any]
    module_address: str | None
    address: str
    _document: HasSecrets | None

    def __init__(
        self, raw: Mapping[str, Any], module_address: str | None = None, *, document: HasSecrets | None = None
    ) -> None:
        if module_address is not None:
            require_name("StateResource", "a module address", module_address)
        entry(STATE, raw, "StateResource", ("values", "root_module", "resources", 0))
        module = module_address or None
        self._set(raw=raw, module_address=module, address=full_address(raw, module), _document=document)

    @classmethod
    def _of(cls, raw: Mapping[str, Any], module_address: str | None, document: HasSecrets | None) -> StateResource:
        view = cls.__new__(cls)
        module = module_address or None
        view._set(raw=raw, module_address=module, address=full_address(raw, module), _document=document)
        return view

    @property
    def values(self) -> Any:
        """The attribute values (None when the state records none)."""
        return self.raw.get("values")

    @property
    def sensitive_values(self) -> Marks:
        """The sensitive marks of ``values`` (``true`` at a value or an ancestor)."""
        return self.raw.get("sensitive_values")

    @property
    def identity(self) -> Mapping[str, Any] | None:
        """The resource identity (``identity``, Terraform 1.12+), or None when the state records none.

        >>> StateResource({"address": "a.b", "identity": {"id": "i-1"}, "identity_schema_version": 0}).identity
        {'id': 'i-1'}
        """
        return self.raw.get("identity")

    @property
    def identity_schema_version(self) -> int | None:
        """The version of the identity schema ``identity`` follows, or None when the state records none.

        >>> StateResource({"address": "a.b"}).identity_schema_version is None
        True
        """
        return self.raw.get("identity_schema_version")

    @property
    def deposed(self) -> str | None:
        """The deposed key of a deposed object, or None for the current object."""
        value = self.raw.get("deposed_key")
        return value if isinstance(value, str) and value else None

    @property
    def tainted(self) -> bool:
        """Whether the object is tainted (to be replaced on the next apply)."""
        return self.raw.get("tainted") is True

    def __repr__(self) -> str:
        document = self._document
        if document is None:
            secrets = Secrets(marked_strings(self.raw.get("values"), self.raw.get("sensitive_values")))
        else:
            secrets = document.secrets
        deposed = f" deposed={secrets.scrub(self.deposed)!r}" if self.deposed else ""
        return f"<StateResource {shown_address(self.address, secrets)}{deposed}>"


@public("plancheck")
@final
class StateOutput(DocumentView):
    """One root module output of a state.

    >>> o = StateOutput("pw", {"value": "hunter2", "sensitive": True, "type": "string"})
    >>> o.sensitive, o
    (True, <StateOutput pw sensitive>)
    """

    __slots__ = ("name", "raw")
    name: str
    raw: Mapping[str, Any]

    def __init__(self, name: str, raw: Mapping[str, Any]) -> None:
        require_name("StateOutput", "an output name", name)
        entry(STATE, raw, "StateOutput", ("values", "outputs", name))
        self._set(name=name, raw=raw)

    @classmethod
    def _of(cls, name: str, raw: Mapping[str, Any]) -> StateOutput:
        view = cls.__new__(cls)
        view._set(name=name, raw=raw)
        return view

    @property
    def value(self) -> Any:
        """The output's value."""
        return self.raw.get("value")

    @property
    def sensitive(self) -> bool:
        """Whether the output is marked sensitive; a ``sensitive`` that is not a bool (``"true"``, ``1``), which the
        constructor refuses, fails closed in a state built without validation (a subclass's, a pickle's).

        >>> StateOutput("b", {"value": "x"}).sensitive, StateOutput._of("a", {"value": "x", "sensitive": "true"}).sensitive
        (False, True)
        """
        return contains_sensitive(self.raw.get("sensitive"))

    @property
    def type(self) -> Any:
        """The output's type, as Terraform writes it (e.g. ``"string"``, ``["list", "string"]``)."""
        return self.raw.get("type")

    def __repr__(self) -> str:
        return f"<StateOutput {self.name}{' sensitive' if self.sensitive else ''}>"
