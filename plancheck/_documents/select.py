"""``Resources``: a selector over a plan's resource changes and a state's resources; ``Actions``: over its
action invocations.

Whole-plan checks, snapshots and their ignore lists all say "these resources"; a selector
is that phrase as a value. It lives with the documents, below every family that uses it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import KW_ONLY, field
from typing import TYPE_CHECKING, Any, Final

from .._errors import ArgumentError
from .._frozen import FrozenValue, constructor_repr, frozen, public
from .._text import Glob, Step, closest, compile_glob, shortened
from .actions import ActionTriggerEvent, ResourceAction
from .plan import ActionInvocation, Plan, ResourceChange
from .state import State, StateResource

__all__ = ["Actions", "Resources", "address_pattern"]

_MODES: Final = ("managed", "data")
#: Terraform's action words and Go's names, lower-cased, for ``action="..."``.
_ACTION_WORDS: Final = {
    **{a.name.lower(): a for a in ResourceAction},
    "no-op": ResourceAction.NoOp,
    "delete": ResourceAction.Destroy,
}


def address_pattern(pattern: str, what: str, owner: str = "Resources") -> Glob:
    """Compile an address glob: ``*`` any text, ``?`` one character, ``[*]`` one instance key.

    Everything else is literal, brackets and quotes included, so ``x["a.b"]`` means that key.
    A pattern that does not end in an instance key or ``*`` also matches every instance of
    what it names (``aws_subnet.private`` covers ``aws_subnet.private[0]``), as ``-target`` does.
    Inside a quoted key, ``*`` and ``?`` stand for characters of the key (an escape pair is one).
    Matching takes time linear in the address, whatever the pattern (:func:`plancheck._text.compile_glob`).

    >>> address_pattern("aws_subnet.private[*]", "address").matches('aws_subnet.private["a"]')
    True
    >>> address_pattern("module.net.*", "address").matches("module.net.aws_vpc.main")
    True
    >>> address_pattern("null_resource.a", "address").matches("null_resource.a[3]")
    True
    >>> address_pattern("null_resource.a[", "address")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: Resources: address 'null_resource.a[' is not a valid pattern: '[' at offset 15 is never closed
    """
    if not isinstance(pattern, str):
        raise ArgumentError(f"{owner}: {what} must be a str pattern, got {type(pattern).__name__}")
    if not pattern and what != "module":
        raise ArgumentError(f"{owner}: {what} must not be empty")
    program: list[str | Step] = []
    i, n = 0, len(pattern)

    def bad(reason: str) -> ArgumentError:
        return ArgumentError(f"{owner}: {what} {shortened(pattern)!r} is not a valid pattern: {reason}")

    while i < n:
        c = pattern[i]
        if c == "*":
            program.append(Step.STAR)
        elif c == "?":
            program.append(Step.ANY)
        elif c == "[":
            close = _bracket_end(pattern, i)
            if close < 0:
                raise bad(f"'[' at offset {i} is never closed")
            inner = pattern[i + 1 : close]
            if inner == "*":
                program.append(Step.KEY)
            elif inner.isdigit() and inner.isascii():
                program.append(pattern[i : close + 1])
            elif len(inner) >= 2 and inner[0] == '"' and inner[-1] == '"':
                program.extend(["[", *_quoted_key(inner, bad), "]"])
            else:
                raise bad(f"[{inner}] at offset {i} is neither [N], [\"key\"] nor [*]")
            i = close
        elif c == "]":
            raise bad(f"']' at offset {i} closes nothing")
        else:
            program.append(c)
        i += 1
    if pattern and not pattern.endswith(("]", "*")):
        program.append(Step.OPTIONAL_KEY)
    return compile_glob(program, pattern)


def _bracket_end(pattern: str, start: int) -> int:
    """The offset of the ``]`` closing the ``[`` at ``start`` (quotes respected), or -1."""
    i, quoted = start + 1, False
    while i < len(pattern):
        c = pattern[i]
        if quoted:
            if c == "\\":
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c == "]":
            return i
        i += 1
    return -1


def _quoted_key(inner: str, bad: Any) -> list[str | Step]:
    """A quoted for_each key of a pattern, as a glob program: escapes kept literal, ``*``/``?`` globbing inside."""
    out: list[str | Step] = ['"']
    body = inner[1:-1]
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            if i + 1 >= len(body):
                raise bad("a key ends in a lone backslash")
            out.append(body[i : i + 2])
            i += 2
            continue
        if c == '"':
            raise bad("a key holds an unescaped '\"'")
        out.append(Step.UNITS if c == "*" else Step.UNIT if c == "?" else c)
        i += 1
    out.append('"')
    return out


def _glob(pattern: str, what: str, owner: str = "Resources") -> Glob:
    """A plain glob (type, provider): ``*`` and ``?``, everything else literal."""
    if not isinstance(pattern, str):
        raise ArgumentError(f"{owner}: {what} must be a str, got {type(pattern).__name__}")
    if not pattern:
        raise ArgumentError(f"{owner}: {what} must not be empty")
    return compile_glob([Step.STAR if c == "*" else Step.ANY if c == "?" else c for c in pattern], pattern)


def _action(value: Any) -> ResourceAction:
    if isinstance(value, ResourceAction):
        return value
    if isinstance(value, str):
        found = _ACTION_WORDS.get(value.lower())
        if found is not None:
            return found
        names = [a.name for a in ResourceAction]
        hint = closest(value, names, n=1) or closest(value.lower(), list(_ACTION_WORDS), n=1)
        did = f"did you mean {_ACTION_WORDS[hint[0].lower()].name}? " if hint else ""
        raise ArgumentError(f"Resources: action {value!r} is not a ResourceAction; {did}(one of {', '.join(names)})")
    raise ArgumentError(f"Resources: action must be a ResourceAction, its name, or a list of them, got {type(value).__name__}")


def _actions(value: Any) -> tuple[ResourceAction, ...] | None:
    if value is None:
        return None
    if isinstance(value, (ResourceAction, str)):
        return (_action(value),)
    if not isinstance(value, Iterable):
        raise ArgumentError(f"Resources: action must be a ResourceAction, its name, or a list of them, got {type(value).__name__}")
    found = tuple(dict.fromkeys(_action(v) for v in value))
    if not found:
        raise ArgumentError("Resources: action must name at least one ResourceAction")
    return found


@public("plancheck")
@frozen
class Resources(FrozenValue):
    """The resources a whole-plan check, a snapshot's ``ignore`` or a count looks at: every field given must hold.

    * ``type``, ``provider``: globs (``aws_*``); ``provider`` matches the full address
      (``registry.terraform.io/hashicorp/aws``) or its end (``hashicorp/aws``, ``aws``);
    * ``address``, ``module``: address globs (``module.net.*``, ``aws_subnet.private[*]``; see
      :func:`address_pattern`). ``module=""`` is the root module only; a module pattern without
      an instance key also covers that module's instances (``module.net`` covers ``module.net[0]``);
    * ``mode``: ``"managed"`` or ``"data"``;
    * ``action``: a :class:`~plancheck.ResourceAction`, its name (``"create"``, ``"replace"``,
      ``"no-op"``, ``"delete"``) or a list of them, any of which may match (plans only);
    * ``allow_empty``: a check over a selector that matches nothing fails, unless this is true.

    >>> from plancheck import Plan, Resources
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [
    ...     {"address": "module.net.aws_subnet.private[0]", "module_address": "module.net", "mode": "managed",
    ...      "type": "aws_subnet", "name": "private", "index": 0, "change": {"actions": ["create"]}},
    ...     {"address": "aws_s3_bucket.logs", "mode": "managed", "type": "aws_s3_bucket", "name": "logs",
    ...      "provider_name": "registry.terraform.io/hashicorp/aws", "change": {"actions": ["update"]}}]})
    >>> [rc.address for rc in Resources(module="module.net").select(plan)]
    ['module.net.aws_subnet.private[0]']
    >>> [rc.address for rc in Resources(provider="hashicorp/aws", action="update").select(plan)]
    ['aws_s3_bucket.logs']
    >>> Resources(type="aws_s3_bucket", action=["create", "replace"])
    Resources(type='aws_s3_bucket', action=(ResourceAction.Create, ResourceAction.Replace))
    >>> Resources(mode="resource")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: Resources: mode must be 'managed' or 'data', got 'resource'
    """

    _: KW_ONLY
    type: str | None = None
    module: str | None = None
    address: str | None = None
    mode: str | None = None
    provider: str | None = None
    action: ResourceAction | tuple[ResourceAction, ...] | None = None
    allow_empty: bool = False
    _compiled: tuple[Glob | None, Glob | None, Glob | None, Glob | None] = (
        field(init=False, repr=False, compare=False)
    )

    if TYPE_CHECKING:  # the constructor takes action names and lists too: __post_init__ converts
        def __init__(
            self,
            *,
            type: str | None = None,
            module: str | None = None,
            address: str | None = None,
            mode: str | None = None,
            provider: str | None = None,
            action: ResourceAction | str | Iterable[ResourceAction | str] | None = None,
            allow_empty: bool = False,
        ) -> None: ...

    def __post_init__(self) -> None:
        mode, allow_empty, action = self.mode, self.allow_empty, self.action
        if mode is not None and mode not in _MODES:
            if not isinstance(mode, str):
                raise ArgumentError(f"Resources: mode must be a str, got {type_name(mode)}")
            raise ArgumentError(f"Resources: mode must be 'managed' or 'data', got {mode!r}")
        if not isinstance(allow_empty, bool):
            raise ArgumentError(f"Resources: allow_empty must be a bool, got {type_name(allow_empty)}")
        actions = _actions(action)
        compiled = (
            None if self.type is None else _glob(self.type, "type"),
            None if self.module is None else (None if self.module == "" else address_pattern(self.module, "module")),
            None if self.address is None else address_pattern(self.address, "address"),
            None if self.provider is None else _glob(self.provider, "provider"),
        )
        shown: ResourceAction | tuple[ResourceAction, ...] | None = actions
        if actions is not None and len(actions) == 1 and not _is_list(action):
            shown = actions[0]
        self._set(action=shown, _compiled=compiled)

    def __repr__(self) -> str:
        _, kwargs = self._args()
        kwargs["allow_empty"] = True if self.allow_empty else None  # the default stays out of the repr
        return constructor_repr(type_name(self), **kwargs)

    @property
    def actions(self) -> tuple[ResourceAction, ...] | None:
        """``action`` as a tuple (None when not given).

        >>> Resources(action="create").actions
        (ResourceAction.Create,)
        """
        if self.action is None or isinstance(self.action, tuple):
            return self.action
        return (self.action,)

    def matches(self, item: ResourceChange | StateResource) -> bool:
        """Whether one resource change (or state resource) is selected.

        >>> from plancheck import ResourceChange
        >>> Resources(type="null_*").matches(ResourceChange({"address": "null_resource.a", "type": "null_resource", "change": {"actions": []}}))
        True
        """
        type_re, module_re, address_re, provider_re = self._compiled
        raw = item.raw
        if self.mode is not None and raw.get("mode", "managed") != self.mode:
            return False
        if type_re is not None and not _full(type_re, raw.get("type")):
            return False
        if self.module is not None:
            module = item.module_address or ""
            if module_re is None:
                if module:
                    return False
            elif not _full(module_re, module):
                return False
        if address_re is not None and not _full(address_re, item.address):
            return False
        if provider_re is not None and not _provider_matches(provider_re, raw.get("provider_name")):
            return False
        actions = self.actions
        if actions is not None:
            if not isinstance(item, ResourceChange):
                raise ArgumentError(f"{self!r}: action selects resource changes of a plan; a state has no actions")
            return any(a.matches(item.actions) for a in actions)
        return True

    def select(self, document: Plan | State) -> tuple[Any, ...]:
        """The selected resource changes of a plan (or resources of a state), in document order.

        Deposed objects are selected like the current ones (their address is the same).

        >>> from plancheck import State
        >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
        ...     {"address": "data.x.y", "mode": "data", "type": "x", "name": "y", "values": {}}]}}})
        >>> [r.address for r in Resources(mode="data").select(state)]
        ['data.x.y']
        """
        if isinstance(document, Plan):
            selected = document._selected
            found = selected.get(self)
            if found is None:
                found = selected[self] = tuple(rc for rc in document.resource_changes if self.matches(rc))
            return found
        if isinstance(document, State):
            if self.action is not None:
                raise ArgumentError(f"{self!r}: action selects resource changes of a plan; a state has no actions")
            return tuple(r for r in document.resources if self.matches(r))
        raise ArgumentError(f"Resources.select: expected a plancheck.Plan or plancheck.State, got {type_name(document)}")

    def describe(self) -> str:
        """The selector as a message shows it: its repr.

        >>> Resources(type="aws_s3_bucket").describe()
        "Resources(type='aws_s3_bucket')"
        """
        return repr(self)


def _event(value: Any) -> ActionTriggerEvent | None:
    if value is None or isinstance(value, ActionTriggerEvent):
        return value
    if isinstance(value, str):
        names = [e.name for e in ActionTriggerEvent]
        found = {name.lower(): name for name in names}.get(value.lower())
        if found is not None:
            return ActionTriggerEvent[found]
        hint = closest(value, names, n=1)
        did = f"did you mean {hint[0]}? " if hint else ""
        raise ArgumentError(f"Actions: event {value!r} is not an ActionTriggerEvent; {did}(one of {', '.join(names)})")
    raise ArgumentError(f"Actions: event must be an ActionTriggerEvent or its name, got {type_name(value)}")


@public("plancheck")
@frozen
class Actions(FrozenValue):
    """The action invocations of a plan (Terraform 1.14+) a whole-plan check looks at: every field given must hold.

    Where :class:`Resources` selects resource changes, this selects entries of ``action_invocations``,
    so ``ExpectEachKnownValue(Actions(...), path, matcher)`` and its siblings ask about each selected
    invocation's configuration (``config_values`` with its ``config_unknown`` and ``config_sensitive``
    marks, read as :class:`~plancheck.ExpectKnownActionConfigValue` reads them).

    * ``address``: an address glob of the action (``action.aws_lambda_invoke.*``; see :func:`address_pattern`);
    * ``type``: a glob of the action type (``aws_*``);
    * ``event``: an :class:`~plancheck.ActionTriggerEvent` or its name (``"AfterCreate"``, ``"Invoke"``);
    * ``triggered_by``: an address glob of the triggering resource (or, for an action invoked
      directly, of its calling resource);
    * ``allow_empty``: a check over a selector that matches nothing fails, unless this is true.

    Deferred invocations (``deferred_action_invocations``) are not selected: they will not run in this apply.

    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "action_invocations": [
    ...     {"address": "action.aws_lambda_invoke.notify", "type": "aws_lambda_invoke", "lifecycle_action_trigger": {
    ...      "triggering_resource_address": "aws_instance.web", "action_trigger_event": "AfterCreate"}},
    ...     {"address": "action.aws_lambda_invoke.audit", "type": "aws_lambda_invoke", "invoke_action_trigger": {}}]})
    >>> Actions("action.aws_lambda_invoke.*", event="AfterCreate").select(plan)
    (<ActionInvocation action.aws_lambda_invoke.notify AfterCreate of aws_instance.web>,)
    >>> [ai.address for ai in Actions(type="aws_*").select(plan)]
    ['action.aws_lambda_invoke.notify', 'action.aws_lambda_invoke.audit']
    >>> Actions(event="AfterCreat")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: Actions: event 'AfterCreat' is not an ActionTriggerEvent; did you mean AfterCreate? (one of BeforeCreate, AfterCreate, BeforeUpdate, AfterUpdate, BeforeDestroy, AfterDestroy, Invoke)
    """

    address: str | None = None
    _: KW_ONLY
    type: str | None = None
    event: ActionTriggerEvent | None = None
    triggered_by: str | None = None
    allow_empty: bool = False
    _compiled: tuple[Glob | None, Glob | None, Glob | None] = field(init=False, repr=False, compare=False)

    if TYPE_CHECKING:  # the constructor takes event names too: __post_init__ converts
        def __init__(
            self,
            address: str | None = None,
            *,
            type: str | None = None,
            event: ActionTriggerEvent | str | None = None,
            triggered_by: str | None = None,
            allow_empty: bool = False,
        ) -> None: ...

    def __post_init__(self) -> None:
        if not isinstance(self.allow_empty, bool):
            raise ArgumentError(f"Actions: allow_empty must be a bool, got {type_name(self.allow_empty)}")
        compiled = (
            None if self.address is None else address_pattern(self.address, "address", owner="Actions"),
            None if self.type is None else _glob(self.type, "type", owner="Actions"),
            None if self.triggered_by is None else address_pattern(self.triggered_by, "triggered_by", owner="Actions"),
        )
        self._set(event=_event(self.event), _compiled=compiled)

    def __repr__(self) -> str:
        args, kwargs = self._args()
        kwargs["allow_empty"] = True if self.allow_empty else None  # the default stays out of the repr
        shown = [arg for arg in args if arg is not None]  # Actions(), not Actions(None)
        return constructor_repr(type_name(self), *shown, **kwargs)

    def matches(self, item: ActionInvocation) -> bool:
        """Whether one action invocation is selected.

        >>> Actions("action.t.*").matches(ActionInvocation({"address": "action.t.n", "invoke_action_trigger": {}}))
        True
        """
        address_re, type_re, by_re = self._compiled
        if address_re is not None and not _full(address_re, item.address):
            return False
        if type_re is not None and not _full(type_re, item.type):
            return False
        if self.event is not None and item.trigger_event is not self.event:
            return False
        if by_re is not None:
            return any(_full(by_re, a) for a in (item.triggering_resource_address, item.calling_resource_address))
        return True

    def select(self, document: Plan) -> tuple[ActionInvocation, ...]:
        """The selected action invocations of a plan, in document order.

        >>> Actions("action.x.*").select(State.from_dict({"format_version": "1.0"}))
        Traceback (most recent call last):
        ...
        plancheck.ArgumentError: Actions.select: expected a plancheck.Plan (a state records no action invocations), got State
        """
        if not isinstance(document, Plan):
            raise ArgumentError(
                f"Actions.select: expected a plancheck.Plan (a state records no action invocations), got {type_name(document)}"
            )
        return tuple(ai for ai in document.action_invocations if self.matches(ai))

    def describe(self) -> str:
        """The selector as a message shows it: its repr.

        >>> Actions("action.t.*", event="Invoke").describe()
        "Actions('action.t.*', event=ActionTriggerEvent.Invoke)"
        """
        return repr(self)


def type_name(value: object) -> str:
    return type(value).__name__


def _is_list(value: Any) -> bool:
    return value is not None and not isinstance(value, (ResourceAction, str))


def _full(pattern: Glob, value: Any) -> bool:
    return isinstance(value, str) and pattern.matches(value)


def _provider_matches(pattern: Glob, provider: Any) -> bool:
    """The full provider address, or any ``/``-separated end of it (``hashicorp/aws``, ``aws``)."""
    if not isinstance(provider, str):
        return False
    parts = provider.split("/")
    return any(pattern.matches("/".join(parts[i:])) for i in range(len(parts)))
