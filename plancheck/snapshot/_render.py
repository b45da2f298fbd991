"""A plan as a snapshot: one block per resource object, data source read during the plan, and output.

* Resource changes (and deferred changes) are blocks ``resource ADDRESS``: their actions, why
  (``action_reason``), where they moved from, their resource identity (Terraform 1.12+: the
  ``after_identity``, else the ``before_identity`` of a delete or forget, as one line of JSON),
  which paths force replacement, and their planned values (``after`` with ``after_unknown`` and
  ``after_sensitive``).
* A deposed object is ``resource ADDRESS (deposed N)``: its deposed key is random, so the deposed
  objects of one address are numbered in the order of what they hold, not named by their key.
* Data sources read during the plan are not resource changes (Terraform 0.15 on, format 0.2 and
  1.x alike): they sit in ``prior_state`` with the values they read, and are blocks with the
  action ``read (during plan)``. A read deferred to apply is a resource change with action ``read``.
* Action invocations (Terraform 1.14+) are blocks ``invocation ADDRESS (TRIGGER)``, the trigger as
  ``AfterCreate of ADDRESS`` or ``Invoke``: ``action: invoke``, ``deferred: REASON`` for a deferred
  one, and the action's configuration (``config_values`` with ``config_unknown`` and
  ``config_sensitive``) as a resource's planned values.
* Outputs are blocks ``output NAME`` whose value is at the path ``value``.

Nothing volatile is kept: no Terraform version, timestamp or format version, no order of the
document. Addresses show their instance keys through the plan's secrets (a ``for_each`` key can be
one; with a key, such a key is its fingerprint), and values as :mod:`plancheck.snapshot._values` says.

What a snapshot leaves out is its ``ignore`` list, which holds, in any mix:

* a path (a :class:`tfjsonpath.Path`, or its text form ``tags["created"]``): left out of every
  resource (and data source), with everything below it;
* a :class:`plancheck.Resources` selector: the resources it selects are left out whole;
* a ``(selector, path)`` pair: the path is left out of the resources the selector selects.

A value left out renders as nothing at all, so it never makes a difference. The command line
writes an entry as text (:func:`parse_ignore_spec`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Final, TypeAlias

from tfjsonpath import MapStep, Path, PathSyntaxError
from tfjsonpath._text import quote_key

from .._checking.messages import keyed_address
from .._documents.plan import Change, Plan, ResourceChange
from .._documents.select import Resources
from .._documents.sensitive import address_parses, shown_address
from .._documents.state import walk_modules
from .._errors import ArgumentError
from .._frozen import public
from .._redact import SENSITIVE
from .._text import one_line
from ._format import (
    INVOCATION,
    OUTPUT,
    RESOURCE,
    TextBlock,
    body_lines,
    json_scalar,
    json_string,
    line_key,
    path_key,
    shown_apart,
    snapshot_text,
)
from ._secrets import FingerprintKey, ValueSecrets
from ._values import IGNORED, Ignored, flatten

__all__ = ["READ_DURING_PLAN", "SELECTOR_FIELDS", "IgnoreEntry", "IgnoreSpec", "parse_ignore_spec", "render_snapshot"]

READ_DURING_PLAN: Final = "read (during plan)"
_EMPTY: Final[Mapping[str, Any]] = {}
#: Where a hidden instance key is, for its fingerprint: apart from every value's place (``resource\x00…``).
_KEY_PLACE: Final = "instance key\x00"
#: What a deferred entry without a reason says: the format's own words, shown as they are.
_NO_REASON: Final = "(no reason given)"
IgnoreEntry: TypeAlias = "Path | str | Resources | tuple[Resources, Path | str]"
#: The fields of a selector written as text, as :class:`plancheck.Resources` names them.
SELECTOR_FIELDS: Final = ("type", "module", "address", "mode", "provider", "action")
_PATH_FIELD: Final = "path"
_EXPECTED_ENTRY: Final = (
    "a tfjsonpath.Path, its text form (str), a plancheck.Resources selector, or a (Resources, path) pair"
)


def render_snapshot(plan: Plan, ignore: IgnoreSpec, key: FingerprintKey | None) -> str:
    """The snapshot text of ``plan``, leaving out what ``ignore`` says, fingerprinting secrets under ``key``.

    Each block is made into text as soon as it is made, so no more than one block's lines are
    held as pieces at a time.
    """
    secrets = ValueSecrets(plan.secrets)
    seen: set[str] = set()
    objects: dict[str, list[TextBlock]] = {}  # by address: the current object's block (deposed 0), deposed ones (1)
    for raw, deferred_reason in _changes(plan):
        address = raw.get("address")
        if not isinstance(address, str):
            continue
        is_deposed = bool(raw.get("deposed"))
        if not is_deposed:
            if address in seen:
                continue  # listed twice (Terraform never does): the first wins, as in every lookup
            seen.add(address)
        block = _resource_block(raw, plan, ignore, secrets, key, is_deposed, deferred_reason)
        if block is not None:
            objects.setdefault(address, []).append(block)
    for raw, module in _data_reads(plan):
        address = raw.get("address")
        if isinstance(address, str) and address not in seen:
            seen.add(address)
            block = _data_block(raw, module, plan, ignore, secrets, key)
            if block is not None:
                objects.setdefault(address, []).append(block)
    blocks = [block for group in _told_apart(objects) for block in group]
    blocks.extend(_invocation_blocks(plan, secrets, key))
    blocks.extend(_output_blocks(plan, secrets, key))
    return snapshot_text(blocks, None if key is None else key.id)


def _told_apart(objects: Mapping[str, list[TextBlock]]) -> Iterator[list[TextBlock]]:
    """The blocks of each address, deposed objects numbered; addresses shown alike (a hidden key) numbered too.

    A deposed key is random, and a hidden ``for_each`` key cannot be shown: the objects of one
    address, and the addresses whose keys are all hidden, are told apart by what they hold. With a
    key, hidden keys are fingerprints (:func:`_shown`), so addresses are shown alike no more.
    """
    by_name: dict[str, list[list[TextBlock]]] = {}
    for blocks in objects.values():
        current = [b for b in blocks if not b.deposed]
        deposed = sorted((b for b in blocks if b.deposed), key=lambda b: b.body)
        numbered = current + [TextBlock(b.kind, b.name, n, b.body) for n, b in enumerate(deposed, 1)]
        by_name.setdefault(blocks[0].name, []).append(numbered)
    for name, groups in by_name.items():
        if len(groups) == 1:
            yield groups[0]
            continue
        groups.sort(key=lambda group: [(b.deposed, b.body) for b in group])
        for n, group in enumerate(groups, 1):
            shown = shown_apart(name, n)
            yield [TextBlock(b.kind, shown, b.deposed, b.body) for b in group]


def _changes(plan: Plan) -> Iterator[tuple[Mapping[str, Any], str | None]]:
    """Every resource change (raw), then every deferred one with its reason."""
    for raw in plan._entries:
        yield raw, None
    yield from _deferred(plan, "deferred_changes", "resource_change")


def _deferred(plan: Plan, entries: str, field: str) -> Iterator[tuple[Mapping[str, Any], str]]:
    """Each deferred entry's ``field`` (raw) with the reason it was deferred (the plan's text, "" for none given),
    from the plan's list ``entries``."""
    for deferred in plan.raw.get(entries) or ():
        raw = deferred.get(field) if isinstance(deferred, Mapping) else None
        if isinstance(raw, Mapping):
            reason = deferred.get("reason")
            yield raw, reason if isinstance(reason, str) else ""


def _data_reads(plan: Plan) -> Iterator[tuple[Mapping[str, Any], str | None]]:
    """The data sources of ``prior_state`` (read during the plan), each with its module's address."""
    prior = plan.raw.get("prior_state")
    values = prior.get("values") if isinstance(prior, Mapping) else None
    if not isinstance(values, Mapping):
        return
    for module, resource in walk_modules(values.get("root_module")):
        if isinstance(resource, Mapping) and resource.get("mode") == "data":
            yield resource, module


def _resource_block(
    raw: Mapping[str, Any],
    plan: Plan,
    ignore: IgnoreSpec,
    secrets: ValueSecrets,
    key: FingerprintKey | None,
    is_deposed: bool,
    deferred_reason: str | None,
) -> TextBlock | None:
    chosen = ignore.for_resource(ResourceChange._of(raw, plan) if ignore.selects else None)
    if chosen is None:
        return None
    trie, all_ignored = chosen
    address = raw["address"]
    change = raw.get("change")
    change = change if isinstance(change, Mapping) else _EMPTY
    actions = change.get("actions")
    facts = [("action", ", ".join(str(a) for a in actions) if actions else "(none)")]
    reason = raw.get("action_reason")
    if isinstance(reason, str) and reason:
        facts.append(("reason", secrets.scrub(reason)))  # Terraform writes fixed words; a hand-made plan anything
    moved = raw.get("previous_address")
    if isinstance(moved, str) and moved:
        facts.append(("moved from", one_line(_shown(moved, secrets))))
    if deferred_reason is not None:
        facts.append(("deferred", _deferral(deferred_reason, secrets)))
    identity = _identity(change)
    if identity is not None and not all_ignored:
        facts.append(("identity", one_line(_identity_text(identity, secrets))))
    if not all_ignored:
        facts.extend(("replace", text) for text in _replace_paths(change, trie, secrets))
    values: list[str] = []
    if not all_ignored:
        where = f"resource\x00{address}" + ("\x00deposed" if is_deposed else "")
        values, unsorted = flatten(change.get("after"), change.get("after_unknown"), change.get("after_sensitive"), "",
                                 secrets=secrets, key=key, where=where, ignore=trie)
        if unsorted:
            values.sort(key=line_key)
    body = "\n".join([*body_lines(facts, ()), *values])
    return TextBlock(RESOURCE, one_line(_shown(address, secrets, key)), 1 if is_deposed else 0, body)


def _deferral(reason: str, secrets: ValueSecrets) -> str:
    """A deferred entry's ``deferred:`` fact: its reason scrubbed (Terraform writes fixed words; a hand-made plan
    anything), or the format's own words for none.

    >>> from plancheck import Secrets
    >>> _deferral("hunter2-why", ValueSecrets(Secrets(["hunter2-why"]))), _deferral("", ValueSecrets())
    ('(sensitive)', '(no reason given)')
    """
    return secrets.scrub(reason) if reason else _NO_REASON


def _identity(change: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The resource identity a change leaves (Terraform 1.12+): ``after_identity``, else ``before_identity`` (a
    delete or forget keeps the identity it had), else None."""
    for side in ("after_identity", "before_identity"):
        identity = change.get(side)
        if isinstance(identity, Mapping):
            return identity
    return None


def _identity_text(value: Any, secrets: ValueSecrets) -> str:
    """An identity as one line of compact JSON, keys sorted, every string that touches a secret scrubbed.

    >>> from plancheck import Secrets
    >>> _identity_text({"region": "eu", "id": "i-1", "tags": ["a", 1]}, ValueSecrets(Secrets(["i-1"])))
    '{"id":"(sensitive)","region":"eu","tags":["a",1]}'
    """
    if isinstance(value, Mapping):
        items = sorted((str(k), v) for k, v in value.items())
        return "{" + ",".join(f"{json_string(secrets.scrub(k))}:{_identity_text(v, secrets)}" for k, v in items) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_identity_text(v, secrets) for v in value) + "]"
    if isinstance(value, str):
        return json_string(secrets.scrub(value))
    return json_scalar(value)


def _shown(address: str, secrets: ValueSecrets, key: FingerprintKey | None = None) -> str:
    """:func:`shown_address`, each instance key scrubbed through :meth:`ValueSecrets.scrub`; with ``key``, fingerprinted.

    Its callers write it on one line of the file through :func:`one_line`: Terraform escapes a control
    character in an instance key (``\\u0000``), a hand-made plan may not, and a raw one would end the
    header line early (``\\r``) or make the file read as binary data (NUL).

    That answers a key that touches no secret with the key itself, and remembers every key's answer:
    the keys of ``for_each`` repeat across a plan, and scrubbing one reads it character by character.

    With ``key``, the last ``(sensitive)`` of a key that hides a secret carries the key's fingerprint,
    ``["(sensitive #0123456789ab)"]``: an HMAC of the key and of the address before it, so the objects
    of one resource keyed by secrets are told apart by which key they have (not by what they hold), one
    module instance's key shows alike in each of its resources, and equal keys of two resources do not.

    >>> from plancheck import Secrets
    >>> secrets = ValueSecrets(Secrets(["hunter2-key"]))
    >>> _shown('a.b["hunter2-key"]', secrets), _shown('a.b["hunter2-key"]', secrets, FingerprintKey(b"k" * 16))
    ('a.b["(sensitive)"]', 'a.b["(sensitive #2f7ea0a57c8a)"]')
    """
    if not address_parses(address):
        # Not an address Terraform writes (a hand-made plan's key without its closing bracket): no part of it is
        # known to be a name, so all of it is scrubbed.
        return secrets.scrub(address)
    if key is None or not secrets.active:
        return shown_address(address, secrets.secrets, scrub=secrets.scrub)
    return keyed_address(address, secrets.secrets, secrets.scrub,
                         lambda where, text: key.fingerprint(_KEY_PLACE + where, text, None))


def _replace_paths(change: Mapping[str, Any], trie: Ignored, secrets: ValueSecrets) -> list[str]:
    shown: dict[str, tuple[Any, ...]] = {}
    for path in Change._of(change).replace_paths:
        if _is_ignored(path, trie):
            continue
        text = _path_text(path, secrets)
        shown.setdefault(text, path_key(text))
    return sorted(shown, key=lambda text: shown[text])


def _is_ignored(path: Path, trie: Ignored) -> bool:
    node: Any = trie
    for step in path.steps:
        if not node:
            return False
        node = node.get(("k", step.key) if isinstance(step, MapStep) else ("i", step.index))
        if node is IGNORED:
            return True
    return False


def _path_text(path: Path, secrets: ValueSecrets) -> str:
    """A path's text with every key that touches a secret shown as ``"(sensitive)"``."""
    parts: list[str] = []
    for step in path.steps:
        if isinstance(step, MapStep):
            name = SENSITIVE if secrets.active and secrets.touches(step.key) else step.key
            parts.append(name if not parts and name.isidentifier() and name.isascii() else f"[{quote_key(name)}]")
        else:
            parts.append(f"[{step.index}]")
    return "".join(parts)


def _data_block(
    raw: Mapping[str, Any],
    module: str | None,
    plan: Plan,
    ignore: IgnoreSpec,
    secrets: ValueSecrets,
    key: FingerprintKey | None,
) -> TextBlock | None:
    change = None
    if ignore.selects:
        fields = {name: raw[name] for name in ("address", "mode", "type", "name", "index", "provider_name") if name in raw}
        if module:
            fields["module_address"] = module
        change = ResourceChange._of({**fields, "change": {"actions": ["read"]}}, plan)
    chosen = ignore.for_resource(change)
    if chosen is None:
        return None
    trie, all_ignored = chosen
    address = raw["address"]
    values: list[str] = []
    if not all_ignored:
        values, unsorted = flatten(raw.get("values"), None, raw.get("sensitive_values"), "", secrets=secrets, key=key,
                                 where=f"resource\x00{address}", ignore=trie)
        if unsorted:
            values.sort(key=line_key)
    body = "\n".join([f"  action: {READ_DURING_PLAN}", *values])
    return TextBlock(RESOURCE, one_line(_shown(address, secrets, key)), 0, body)


def _invocations(plan: Plan) -> Iterator[tuple[Mapping[str, Any], str | None]]:
    """Every action invocation (raw), then every deferred one with its reason (Terraform 1.14+)."""
    for raw in plan.raw.get("action_invocations") or ():
        if isinstance(raw, Mapping):
            yield raw, None
    yield from _deferred(plan, "deferred_action_invocations", "action_invocation")


def _trigger(raw: Mapping[str, Any], secrets: ValueSecrets, key: FingerprintKey | None) -> str:
    """What triggers an invocation, as its block's name says it: ``AfterCreate of ADDRESS``, ``Invoke``."""
    lifecycle = raw.get("lifecycle_action_trigger")
    if isinstance(lifecycle, Mapping):
        event = lifecycle.get("action_trigger_event")
        text = secrets.scrub(event) if isinstance(event, str) and event else "an unnamed event"
        resource = lifecycle.get("triggering_resource_address")
        return text + (f" of {_shown(resource, secrets, key)}" if isinstance(resource, str) and resource else "")
    invoke = raw.get("invoke_action_trigger")
    if isinstance(invoke, Mapping):
        calling = invoke.get("calling_resource_address")
        return "Invoke" + (f" for {_shown(calling, secrets, key)}" if isinstance(calling, str) and calling else "")
    return "no trigger"


def _invocation_blocks(plan: Plan, secrets: ValueSecrets, key: FingerprintKey | None) -> Iterator[TextBlock]:
    """A block ``invocation ADDRESS (TRIGGER)`` per action invocation: ``action: invoke``, its deferral, and its
    configuration (``config_values`` with ``config_unknown`` and ``config_sensitive``, as a resource's values).

    An action triggered twice alike (two ``action_trigger`` blocks with one event) is numbered.
    """
    seen: dict[str, int] = {}
    for raw, deferred_reason in _invocations(plan):
        address = raw.get("address")
        if not isinstance(address, str):
            continue
        name = one_line(f"{_shown(address, secrets, key)} ({_trigger(raw, secrets, key)})")
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            name = shown_apart(name, seen[name])
        facts = [("action", "invoke")]
        if deferred_reason is not None:
            facts.append(("deferred", _deferral(deferred_reason, secrets)))
        values, unsorted = flatten(raw.get("config_values"), raw.get("config_unknown"), raw.get("config_sensitive"), "",
                                 secrets=secrets, key=key, where=f"invocation\x00{name}")
        if unsorted:
            values.sort(key=line_key)
        yield TextBlock(INVOCATION, name, 0, "\n".join([*body_lines(facts, ()), *values]))


def _output_blocks(plan: Plan, secrets: ValueSecrets, key: FingerprintKey | None) -> Iterator[TextBlock]:
    outputs = plan.raw.get("output_changes")
    if not isinstance(outputs, Mapping):
        return
    for name, change in outputs.items():
        if not isinstance(change, Mapping):
            continue
        actions = change.get("actions")
        facts = [("action", ", ".join(str(a) for a in actions) if actions else "(none)")]
        values, unsorted = flatten(change.get("after"), change.get("after_unknown"), change.get("after_sensitive"), "value",
                                 secrets=secrets, key=key, where=f"output\x00{name}")
        if unsorted:
            values.sort(key=line_key)
        yield TextBlock(OUTPUT, one_line(str(name)), 0, "\n".join([*body_lines(facts, ()), *values]))


# -- what a snapshot leaves out


def _path(value: object, where: str) -> Path:
    if isinstance(value, Path):
        return value
    if isinstance(value, str):
        try:
            return Path.parse(value)
        except PathSyntaxError as exc:
            raise ArgumentError(f"{where}: {exc}") from None
    raise ArgumentError(f"{where}: expected a tfjsonpath.Path or its text form (str), got {type(value).__name__}")


def _trie(paths: Iterable[Path]) -> tuple[Ignored, bool]:
    """The trie of ``paths`` (a step to the trie below it, or to IGNORED), and whether the root itself is ignored."""
    root: dict[tuple[str, Any], Any] = {}
    for path in paths:
        steps = path.steps
        if not steps:
            return {}, True
        node = root
        for step in steps[:-1]:
            token = ("k", step.key) if isinstance(step, MapStep) else ("i", step.index)
            below = node.get(token)
            if below is IGNORED:
                break
            if below is None:
                below = node[token] = {}
            node = below
        else:
            last = steps[-1]
            node[("k", last.key) if isinstance(last, MapStep) else ("i", last.index)] = IGNORED
    return root, False


@public("plancheck.snapshot")
class IgnoreSpec:
    """An ``ignore`` list, checked and compiled: per resource, whether to leave it out, and which paths.

    What :func:`build` takes, made once by a front end of your own: ``owner`` names the option or
    argument the entries came from in its errors. :func:`render` and the others make theirs.

    >>> from plancheck import Resources
    >>> spec = IgnoreSpec(['triggers["ts"]', Resources(type="random_*"), (Resources(type="null_*"), "id")], "render()")
    >>> spec.for_resource(ResourceChange({"address": "random_id.x", "type": "random_id", "change": {"actions": []}})) is None
    True
    >>> sorted(spec.for_resource(ResourceChange({"address": "null_resource.a", "type": "null_resource", "change": {"actions": []}}))[0])
    [('k', 'id'), ('k', 'triggers')]
    >>> IgnoreSpec([3], "render()")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: render() ignore[0]: expected a tfjsonpath.Path, its text form (str), a plancheck.Resources selector, or a (Resources, path) pair, got int
    """

    __slots__ = ("_cache", "_everywhere", "_scoped", "_skip", "entries")

    def __init__(self, ignore: object, owner: str) -> None:
        if isinstance(ignore, (str, Path, Resources)):
            ignore = [ignore]
        if not isinstance(ignore, Iterable) or isinstance(ignore, (bytes, Mapping)):
            raise ArgumentError(f"{owner} ignore must be a list of paths, selectors and (selector, path) pairs, "
                            f"got {type(ignore).__name__}")
        everywhere: list[Path] = []
        scoped: list[tuple[Resources, Path]] = []
        skip: list[Resources] = []
        entries: list[IgnoreEntry] = []
        for i, entry in enumerate(ignore):
            where = f"{owner} ignore[{i}]"
            if isinstance(entry, Resources):
                skip.append(entry)
            elif isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], Resources):
                scoped.append((entry[0], _path(entry[1], where)))
            elif isinstance(entry, (Path, str)):
                everywhere.append(_path(entry, where))
            else:
                raise ArgumentError(f"{where}: expected {_EXPECTED_ENTRY}, got {type(entry).__name__}")
            entries.append(entry)
        self.entries = tuple(entries)
        self._everywhere = tuple(everywhere)
        self._scoped = tuple(scoped)
        self._skip = tuple(skip)
        self._cache: dict[tuple[int, ...], tuple[Ignored, bool]] = {(): _trie(everywhere)}

    @property
    def selects(self) -> bool:
        """Whether any entry depends on which resource it is (a selector)."""
        return bool(self._scoped or self._skip)

    def for_resource(self, change: ResourceChange | None) -> tuple[Ignored, bool] | None:
        """For one resource: None to leave it out whole, else its ignore trie and whether all its values are ignored.

        ``change`` may be None when no entry has a selector (:attr:`selects` is false).
        """
        if change is None or not self.selects:
            return self._cache[()]
        if any(selector.matches(change) for selector in self._skip):
            return None
        chosen = tuple(i for i, (selector, _) in enumerate(self._scoped) if selector.matches(change))
        found = self._cache.get(chosen)
        if found is None:
            found = self._cache[chosen] = _trie([*self._everywhere, *(self._scoped[i][1] for i in chosen)])
        return found


@public("plancheck.snapshot")
def parse_ignore_spec(text: str) -> IgnoreEntry:
    """An ``ignore`` entry written as text, as ``tfplancheck snapshot --ignore`` takes it (from a file, say).

    ``PATH`` (the text form of a path) is left out of every resource; ``FIELD=VALUE[,FIELD=VALUE...]``
    (fields of :class:`plancheck.Resources`: type, module, address, mode, provider, action; repeat
    ``action=`` for several) leaves out the resources it selects; ending it with ``,path=PATH``
    leaves out only that path of them. ``path=`` comes last: the rest of the text is the path.

    >>> parse_ignore_spec('triggers["ts"]')
    Path(MapStep('triggers'), MapStep('ts'))
    >>> parse_ignore_spec('type=null_resource,address=null_resource.a[*],path=triggers["a,b"]')
    (Resources(type='null_resource', address='null_resource.a[*]'), Path(MapStep('triggers'), MapStep('a,b')))
    >>> parse_ignore_spec("action=create,action=update")
    Resources(action=(ResourceAction.Create, ResourceAction.Update))
    >>> parse_ignore_spec("typ=x")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: 'typ=x' is neither a path (expected '.', '[' or the end of the path at offset 3, found '=') nor a selector FIELD=VALUE[,FIELD=VALUE...][,path=PATH] with fields type, module, address, mode, provider, action
    """
    if not isinstance(text, str):
        raise ArgumentError(f"an ignore spec must be a str, got {type(text).__name__}")
    fields = _leading_fields(text)
    if fields is None:
        try:
            return Path.parse(text)
        except PathSyntaxError as exc:
            fields_text = ", ".join(SELECTOR_FIELDS)
            raise ArgumentError(
                f"{text!r} is neither a path ({_syntax(exc)}) nor a selector "
                f"FIELD=VALUE[,FIELD=VALUE...][,path=PATH] with fields {fields_text}"
            ) from None
    arguments: dict[str, Any] = {}
    path: Path | None = None
    for name, value in fields:
        if name == _PATH_FIELD:
            try:
                path = Path.parse(value)
            except PathSyntaxError as exc:
                raise ArgumentError(f"{text!r}: path={value!r} is not a path: {_syntax(exc)}") from None
        elif name == "action":
            arguments.setdefault("action", []).append(value)
        elif name in arguments:
            raise ArgumentError(f"{text!r}: {name}= is given twice")
        else:
            arguments[name] = value
    if not arguments:
        assert path is not None  # _leading_fields found at least one field
        return path
    actions = arguments.get("action")
    if actions is not None and len(actions) == 1:
        arguments["action"] = actions[0]
    try:
        selector = Resources(**arguments)
    except (TypeError, ValueError) as exc:
        raise ArgumentError(f"{text!r}: {str(exc).removeprefix('Resources: ')}") from None
    return selector if path is None else (selector, path)


def _syntax(exc: PathSyntaxError) -> str:
    """A path syntax error without the path it repeats (the caller quotes the whole text)."""
    return f"expected {exc.expected} at offset {exc.position}, found {exc.found}"


def _leading_fields(text: str) -> list[tuple[str, str]] | None:
    """``FIELD=VALUE`` pairs split at each ``,FIELD=``, ``path=`` taking the rest; None if ``text`` starts with none."""
    names = (*SELECTOR_FIELDS, _PATH_FIELD)
    if not any(text.startswith(f"{name}=") for name in names):
        return None
    found: list[tuple[str, str]] = []
    rest = text
    while True:
        name, _, rest = rest.partition("=")
        if name == _PATH_FIELD:
            found.append((name, rest))
            return found
        cut = -1
        for other in names:
            at = rest.find(f",{other}=")
            if at >= 0 and (cut < 0 or at < cut):
                cut = at
        if cut < 0:
            found.append((name, rest))
            return found
        found.append((name, rest[:cut]))
        rest = rest[cut + 1 :]
