"""Reading plan and state documents from files, streams, bytes or dicts, then validating them: one route.

The result is a :class:`Loaded` document, which :mod:`plancheck._documents` wraps in a ``Plan``
or a ``State``; this layer knows nothing of the models. A :class:`LoadSpec` says what
differs between the two: the error type and the validator. Large documents of both kinds are
split and parsed lazily (plans by ``split`` or ``parallel``; states by ``split_state``, with
msgspec only).

Loading happens once per plan: read the bytes (at most ``max_bytes``, see ``source.read_bytes``),
check the JSON syntax of all of it and the structure the schema constrains, and index the
resource changes by address. Big values are parsed when first read (see ``split``),
so a check costs the same in a plan of ten resources as in one of twenty thousand.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping
from typing import IO, Any, Final

from tfjsonpath._jsontypes import Cycle, find_cycle, is_object, json_size

from .._errors import ArgumentError, DocumentFormatError, PlanFormatError, StateFormatError
from .._frozen import FrozenValue, frozen
from .collector import collector_off
from .jsontext import check_utf8, exact_numbers, fast_agrees, loads_exact, resolve_parser
from .lazy import LazyObject, Thunk
from .location import PathKey, hidden_inside, hidden_keys_from, json_location
from .source import max_input_bytes
from .split import SplitPlan, split_fast
from .split_state import plan_state_skims, split_state
from .validate import (
    VALIDATION_MODES,
    SchemaValidator,
    check_kind,
    loading_whole,
    mode_error,
    plan_validator,
    render_violation,
    secret_asker,
    state_validator,
    validate,
)

__all__ = [
    "PLAN",
    "STATE",
    "LoadSpec",
    "DocumentSource",
    "Loaded",
    "document",
    "entry",
    "refuse_cycle",
    "parse",
    "parse_text",
]

DocumentSource = str | os.PathLike[str] | bytes | bytearray | memoryview | IO[str] | IO[bytes] | Mapping[str, Any]

#: Plans at least this big are split and parsed lazily; smaller ones are parsed whole (it is quicker).
LAZY_MIN_BYTES: Final = 1 << 20
#: The same for states (a separate knob, so tests can send every state through the split route).
LAZY_STATE_MIN_BYTES: Final = 1 << 20


@frozen
class LoadSpec(FrozenValue):
    """What the route does differently for plans and states.

    >>> PLAN.noun, STATE.error.__name__, STATE.lazy
    ('plan', 'StateFormatError', True)
    """

    noun: str
    caller: str
    error: type[DocumentFormatError]
    #: The compiled schema of this kind (cached: made on first use).
    validator: Callable[[], SchemaValidator]
    #: Large documents of this kind are split and parsed on first access (see ``split``).
    lazy: bool


PLAN: Final = LoadSpec("plan", "load_plan", PlanFormatError, plan_validator, lazy=True)
STATE: Final = LoadSpec("state", "load_state", StateFormatError, state_validator, lazy=True)


@frozen
class Loaded(FrozenValue):
    """A validated document: ``raw`` (parsed, or parsed lazily), where it came from, and, for a
    lazily parsed plan, its ``resource_changes`` entries (parsed on access) with their index ``keys``, and the
    ``(address, deposed)`` of each ``resource_drift`` entry (``drift_keys``), which are parsed on access too.

    >>> document(PLAN, {"format_version": "1.0"}).raw
    {'format_version': '1.0'}
    """

    raw: Mapping[str, Any]
    source: str | None = None
    entries: Any = None
    keys: Any = None
    drift_keys: Any = None


def document(kind: LoadSpec, parsed: Any, *, source: str | None = None, validation: str = "fast") -> Loaded:
    """Validate a parsed document of ``kind`` (not copied, never modified).

    >>> document(STATE, {"format_version": "1.0"}).source is None
    True
    """
    refuse_cycle(parsed, kind.error, source)
    validate(kind.validator(), parsed, kind.error, source, validation)
    return Loaded(parsed, source)


def entry(kind: LoadSpec, raw: Any, view: str, at: PathKey) -> None:
    """Refuse ``raw``, given alone to the constructor of the view ``view`` (a ``ResourceChange``, a
    ``StateResource``, ...), where the schema would refuse it as the entry found at ``at`` in a document of
    ``kind``: ``kind.error`` names the view as its source and the location within the entry (``$.change.actions``);
    a cycle is refused first, as in a document. ``at`` places the entry for its secrets: a value the error would
    quote, a key it would name, is hidden where it is one of the entry's own (see :func:`render_violation`).

    A document's entries are not checked again: it was validated whole, and its views are built without this.

    >>> entry(PLAN, {"address": "a.b", "change": {"actions": "create"}}, "ResourceChange", ("resource_changes", 0))
    Traceback (most recent call last):
    ...
    plancheck.PlanFormatError: ResourceChange: $.change.actions: expected an array of actions, found a string
    """
    refuse_cycle(raw, kind.error, view, at)
    validator = kind.validator()
    node = validator.root
    for step in at:  # the schema of an entry at ``at``: an array's items, an object's member
        member = node.items if isinstance(step, int) else node.member(step)
        if member is None:  # a view naming a place its schema does not constrain: the view's own mistake
            raise LookupError(f"the {kind.noun} schema describes no entry at {json_location(at)}")
        node = member
    violation = validator.first_violation(raw, path=at, node=node)
    if violation is not None:
        raise render_violation(violation, raw, validator.schema, kind.error, view, at, alone=True)


def refuse_cycle(
    document: Any, error: Callable[..., DocumentFormatError], source: str | None, at: PathKey = ()
) -> None:
    """Raise ``error`` where ``document`` (Python values: parsed JSON holds no cycle) holds a container inside
    itself, naming the container too; a value met twice elsewhere (a mapping shared by two modules) is no cycle.

    Every walk of a document (validation, the secret walk, resolving a path, rendering) goes round a cycle for
    ever or to a RecursionError, so the entries that take Python values refuse one before any walk. ``document``
    may be an entry given alone to a view, standing at ``at`` in a document: it is located within itself. The keys
    the error names are hidden as a format error's are (:func:`~plancheck._loading.location.hidden_keys_from`), with
    the secrets of the document with its cycles cut (:func:`_secrets_past_cycles`).

    >>> after = {"id": "a"}
    >>> after["tags"] = [after]
    >>> refuse_cycle({"resource_changes": [{"change": {"after": after}}]}, PlanFormatError, "p.json")
    Traceback (most recent call last):
    ...
    plancheck.PlanFormatError: p.json: $.resource_changes[0].change.after["(sensitive)"][0]: expected a JSON value (which holds no cycle), found a reference back to $.resource_changes[0].change.after
    """
    with collector_off():  # the quick test's lists are many and hold no cycle
        cycle = find_cycle(document)
    if cycle is not None:
        cut, shows = _secrets_past_cycles(document, error, at)

        def shown(steps: tuple[Any, ...]) -> str:
            # Marks are not read to tell which keys inside a holder are secrets: their walks may go round a cycle too.
            # Every key inside a holder's values or trees is hidden; the way to the holder says where, but for a key
            # that spells a secret, and but for all of it where the secrets cannot be read (failing closed).
            path = at + tuple(steps)
            if shows is None:
                return json_location(path, len(at), len(at))
            hidden = [i for i in (hidden_inside(path, at), hidden_keys_from(path, cut, at, shows)) if i is not None]
            return json_location(path, min(hidden, default=None), len(at))

        found = f"a reference back to {shown(cycle.back)}"
        raise error(shown(cycle.at), "a JSON value (which holds no cycle)", found=found, source=source)


#: The most cycles a document's error cuts to read its secrets; past them, no key of its location is shown.
_MOST_CUTS: Final = 100


def _secrets_past_cycles(
    document: Any, error: Callable[..., DocumentFormatError], at: PathKey = ()
) -> tuple[Any, Callable[[str], bool] | None]:
    """``document`` (found at ``at``: an entry given alone to a view) with each reference closing a cycle replaced by
    a string of its own, and whether a text shows a secret of it (None where that cannot be told: too many cycles,
    or a copy too large to walk).

    The secrets are those of the cut document (as a loaded one's are gathered) and, where a cut string is one of
    them (it stands where a mark, a sensitive variable or output makes a value secret), every string of the
    container its reference went back to and of those that container's own cuts went back to: the walk going round
    the cycle would have met each of them there, under the same mark. So a key outside every value is hidden where
    it spells a secret, and shown where the document's secrets say it is none.
    """
    cut: Any = document
    cuts: list[Cycle] = []
    with collector_off():
        while (cycle := find_cycle(cut)) is not None:
            if len(cuts) == _MOST_CUTS:
                return document, None
            cut = _replaced(cut, cycle.at, _cut_string(len(cuts)))
            cuts.append(cycle)
    if json_size(cut) > max_input_bytes(None):  # each container counted at each place: as the walks go
        return document, None
    kind = error if isinstance(error, type) else DocumentFormatError  # a query's (a partial) quotes no secret
    asks = secret_asker(lambda: cut, at, kind)
    # The cut strings are asked together, then one by one only when one is a secret.
    try:
        if not asks("\n".join(_cut_string(i) for i in range(len(cuts)))):
            return cut, asks
    except Exception:  # a document no walk foresaw (its marks may be anything): nothing is vouched for
        return document, None
    # An error's path only: loading a valid document imports no redaction.
    from .._redact import Secrets, secret_strings

    backs = {cycle.back for i, cycle in enumerate(cuts) if asks(_cut_string(i))}
    grown = True
    while grown:  # a cut inside a container gone back to goes back on: its container is met there too
        more = {cycle.back for cycle in cuts if any(cycle.at[: len(back)] == back for back in backs)}
        grown = not more <= backs
        backs |= more
    strings: set[str] = set()
    for back in backs:
        node = cut
        for step in back:
            node = node[step]
        strings |= secret_strings(node)
    also = Secrets(strings)
    return cut, lambda text: asks(text) or also.scrub(text) != text


def _cut_string(index: int) -> str:
    """The string standing for cut ``index``: private-use characters, which no secret or key of a plan spells."""
    return "\U000f0000" + chr(0xF0001 + index) + "\U000f0000"


def _replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """``value`` with ``new`` at ``path``: each container on the way copied (a mapping as a dict, a sequence as a
    list), the rest shared; ``value`` itself is not modified. Without recursion, so any depth works."""
    way = [value]
    for step in path[:-1]:
        way.append(way[-1][step])
    for node, step in zip(reversed(way), reversed(path), strict=True):
        copy: Any = dict(node) if is_object(node) else list(node)
        copy[step] = new
        new = copy
    return new


def _plan_from_split(split: SplitPlan, source: str | None, validation: str) -> Loaded:
    validator = plan_validator()
    check_kind(split.view, PlanFormatError, source)
    raw = LazyObject(split.values)
    with loading_whole(split.whole):
        if validation == "full":
            validate(validator, raw, PlanFormatError, source, "full")
        else:
            violation = validator.first_violation(split.view)
            if violation is not None:
                if isinstance(violation.instance, Thunk):
                    # Describe the value itself (its size too), as a full parse would.
                    violation = dataclasses.replace(violation, instance=violation.instance.load())
                raise render_violation(violation, split.view, validator.schema, PlanFormatError, source, readable=split.whole)
    entries = split.entries.get("resource_changes")
    keys = None if entries is None else split.keys["resource_changes"]
    return Loaded(raw, source, entries, keys, split.keys.get("resource_drift"))


def _plan_from_bytes(box: list[bytes | str], source: str | None, validation: str, which: str) -> Loaded | None:
    """Load a large plan lazily; ``box`` holds the only reference to the bytes, so they can be freed early."""
    data = box[0]
    assert isinstance(data, bytes)
    with collector_off(promote=True), exact_numbers():
        split = None
        if which == "fast" and fast_agrees(data):
            check_utf8(data, error=PlanFormatError, source=source)
            split = split_fast(data, source)
            if split is not None:
                for key, skim in plan_state_skims(split.texts).items():
                    thunk = split.values.get(key)
                    if isinstance(thunk, Thunk):
                        thunk.skim = skim
        else:
            from .parallel import split_parallel

            del data
            split = split_parallel(box, source)
        if split is None:
            return None
        return _plan_from_split(split, source, validation)


def _state_from_bytes(data: bytes, source: str | None) -> Loaded | None:
    """Load a large state with its resources' values parsed on first read (msgspec, fast validation only)."""
    with collector_off(promote=True), exact_numbers():
        check_utf8(data, error=StateFormatError, source=source)
        split = split_state(data, source)
    if split is None:
        return None
    validate(state_validator(), split.view, StateFormatError, source, readable=split.whole)
    return Loaded(split.value, source)


def parse(kind: LoadSpec, box: list[bytes | str], source: str | None, validation: str, parser: str) -> Loaded:
    """Parse and validate the JSON text in ``box`` (its one item: the box holds the only reference to the
    text, so a large plan's bytes are freed once decoded) as a document of ``kind``.

    >>> parse(PLAN, [b'{"format_version": "1.2", "resource_changes": []}'], None, "fast", "auto").raw["format_version"]
    '1.2'
    """
    if validation not in VALIDATION_MODES:  # refused before any work: the lazy routes read the mode later
        raise mode_error(validation)
    which = resolve_parser(parser)
    text = box[0]
    threshold = LAZY_MIN_BYTES if kind is PLAN else LAZY_STATE_MIN_BYTES
    if kind.lazy and isinstance(text, bytes) and len(text) >= threshold:
        if kind is PLAN:
            del text
            plan = _plan_from_bytes(box, source, validation, which)
            if plan is not None:
                return plan
            text = box[0]
        elif which == "fast" and validation == "fast" and fast_agrees(text):
            # Full validation reads every value anyway; the standard library cannot skip one.
            state = _state_from_bytes(text, source)
            if state is not None:
                return state
    box.clear()
    parsed = loads_exact(text, error=kind.error, source=source, parser=which)
    del text
    validate(kind.validator(), parsed, kind.error, source, validation)  # the mode was checked above
    return Loaded(parsed, source)


def parse_text(
    kind: LoadSpec, text: str | bytes, *, source: str | None = None, validation: str = "fast", parser: str = "auto"
) -> Loaded:
    """Parse JSON text and validate it as a document of ``kind``.

    >>> parse_text(PLAN, b'{"format_version": "0.1"}').raw["format_version"]
    '0.1'
    """
    if not isinstance(text, (str, bytes, bytearray)):
        name = "Plan" if kind is PLAN else "State"
        raise ArgumentError(f"{name}.from_json expects str or bytes, got {type(text).__name__}")
    if isinstance(text, str) and text.startswith("\ufeff"):
        # A byte-order mark decoded into the text: the same document as the bytes, which load.
        text = text[1:]
    return parse(kind, [text if isinstance(text, (str, bytes)) else bytes(text)], source, validation, parser)
