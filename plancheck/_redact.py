"""Rendering values for messages without ever leaking a secret.

Two defences, because Terraform itself sometimes drops a mark:

* structural: a subtree under a sensitive mark (``true`` at the value or any
  ancestor in ``after_sensitive``/``before_sensitive``/``sensitive_values``)
  renders as ``(sensitive)``;
* by value: the string values of sensitive variables, outputs and marked
  attributes are collected as :class:`Secrets`, and any text that contains one
  is scrubbed before it is shown.

Revealing is possible only on purpose, for local debugging, through
:func:`revealing_sensitive` (the pytest option ``--tf-show-sensitive``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal
from typing import Any, Final

from tfjsonpath import MapStep, SliceStep, Step
from tfjsonpath._jsontypes import is_array, is_object, is_sequence, number_text

from ._errors import ArgumentError
from ._frozen import ReadOnly, public
from ._text import (
    at_cut,
    bounded_by_spans,
    number_spellings,
    outside_cover,
    sharing_a_window,
    spellings,
    whole_token,
    windows_of,
)

__all__ = [
    "KNOWN_AFTER_APPLY",
    "MARKERS",
    "SENSITIVE",
    "SENSITIVE_CHANGED",
    "SENSITIVE_UNMARKED",
    "Marks",
    "Secrets",
    "child_marks",
    "collect_secret_strings",
    "contains_sensitive",
    "marks_at",
    "render_value",
    "rendered",
    "revealing_sensitive",
    "secret_strings",
    "secrets_from_state",
    "secrets_state",
    "sensitive_shown",
    "walk_marks",
    "with_unknowns",
]

SENSITIVE: Final = "(sensitive)"
#: A value the snapshot of one side marks, and the other shows: hidden on both (:mod:`plancheck.snapshot`).
SENSITIVE_UNMARKED: Final = "(sensitive, unmarked)"
#: A sensitive value that changed, as a snapshot diff shows its new side.
SENSITIVE_CHANGED: Final = "(sensitive, changed)"
#: A value unknown until apply, as query, drift checks and snapshots show it.
KNOWN_AFTER_APPLY: Final = "(known after apply)"
#: The markers that hide a value: a secret spelled like one is none (its scrub would show a marker all the same).
_HIDING_MARKERS: Final = frozenset((SENSITIVE, SENSITIVE_UNMARKED, SENSITIVE_CHANGED))
#: Every marker the library writes in place of a value. Its words are the library's, not a value's: a secret
#: spelled like one of them (``known``) is not scrubbed inside a marker (:meth:`Secrets.scrub`).
MARKERS: Final = (SENSITIVE, SENSITIVE_UNMARKED, SENSITIVE_CHANGED, KNOWN_AFTER_APPLY)
#: Shortest secret scrubbed by value: shorter strings ("", "a", "id") would blank out ordinary words.
MIN_SECRET_LENGTH: Final = 3

#: Any run of this many characters taken from a secret (or from one of its escaped renderings) is
#: scrubbed where a renderer may have cut the value (next to a quote, whitespace, a line end or an
#: ellipsis), so a secret cut by truncation, windowing or wrapping still never shows.
#: Why 8: the fragments pytest and Terraform make of a long value are longer (a ``saferepr`` half is
#: ~118 characters, a diff window keeps 10 characters of context before the first difference, a cut
#: line keeps what fits in 640 characters), while a shorter window starts to blank out ordinary words
#: (``benchmarks/bench_scrub.py`` measures how much of an unrelated text each window length scrubs).
SUBSTRING_WINDOW: Final = 8
MAX_RENDER_CHARS: Final = 4000

# A marks tree as Terraform writes it: true, false, or objects/arrays of marks mirroring the value.
Marks = Any

_SHOW: ContextVar[bool] = ContextVar("plancheck_show_sensitive", default=False)


def sensitive_shown() -> bool:
    """True only inside :func:`revealing_sensitive`.

    >>> sensitive_shown()
    False
    """
    return _SHOW.get()


@public("plancheck")
@contextmanager
def revealing_sensitive(reveal: bool = True) -> Iterator[None]:
    """Within this block, messages show sensitive values (for local debugging only).

    >>> with revealing_sensitive():
    ...     render_value("hunter2", True)
    '"hunter2"'
    >>> render_value("hunter2", True)
    '(sensitive)'
    """
    if not isinstance(reveal, bool):  # reveal="no" is truthy: it showed every secret it was meant to keep
        raise ArgumentError(f"revealing_sensitive: reveal must be a bool, got {type(reveal).__name__}")
    token = _SHOW.set(reveal)
    try:
        yield
    finally:
        _SHOW.reset(token)


class _NoValue:
    __slots__ = ()

    def __repr__(self) -> str:
        return "NO_VALUE"


#: No value to fit marks to: the value is absent there, or was not looked at. Any container fits it.
NO_VALUE: Final[Any] = _NoValue()


def fit_marks(marks: Marks, value: Any = NO_VALUE) -> Marks:
    """The marks node ``marks`` as it applies to ``value``: itself, or, if malformed, what it fails closed to.

    Terraform writes a marks node as ``true``, ``false``/null, or an object (array) of marks over an
    object (array) value. A node that does not fit cannot be trusted to say what is *not* marked:
    one that is neither a bool, null nor a container (``1``, ``"true"``) is ``True``; a container of
    the wrong kind for the value (array marks over a string or an object, object marks over an
    array or a scalar) is ``True`` if it holds a mark anywhere, else None. A null value, or
    :data:`NO_VALUE`, fits either kind of container.

    >>> fit_marks(1), fit_marks("true"), fit_marks([True], "hunter2"), fit_marks([False], {"a": "x"})
    (True, True, True, None)
    >>> fit_marks({"a": True}, {"a": "x"}), fit_marks([True], None), fit_marks(False, "x")
    ({'a': True}, [True], False)
    """
    if marks is True or marks is False or marks is None:
        return marks
    kind = type(marks)
    if (kind is dict or kind is list) and (type(value) is kind or value is None or value is NO_VALUE):
        return marks  # what JSON parsers build, tested by identity: the common case, and the fast one
    if is_object(marks):
        if value is None or value is NO_VALUE or is_object(value):
            return marks
    elif is_sequence(marks):
        if value is None or value is NO_VALUE or is_sequence(value):
            return marks
    else:
        return True
    return True if contains_sensitive(marks) else None


def child_marks(marks: Marks, step: Step) -> Marks:
    """The marks of the child at ``step`` of a value that has such a child; ``True`` is inherited by every descendant.

    Callers step by the kind of the value, so marks of the other kind do not fit it and fail
    closed, as :func:`fit_marks` says: ``True`` if they hold any mark (else None); so does a node
    that is neither a bool, null nor a container.

    >>> child_marks(True, MapStep("a")), child_marks({"a": [False, True]}, MapStep("a"))
    (True, [False, True])
    >>> child_marks([True], MapStep("a")), child_marks({"a": 1}, SliceStep(0)), child_marks(1, SliceStep(0))
    (True, True, True)
    """
    if marks is True:
        return True
    if marks is None or marks is False:
        return None
    if isinstance(step, MapStep):
        if is_object(marks):
            return marks.get(step.key)
    elif is_sequence(marks):
        return marks[step.index] if step.index < len(marks) else None
    if is_object(marks) or is_sequence(marks):
        return True if contains_sensitive(marks) else None
    return True


def _value_child(value: Any, step: Step) -> Any:
    """The child of ``value`` at ``step``, or NO_VALUE (as :func:`plancheck._documents.resolve.value_at` walks)."""
    if value is NO_VALUE or value is None:
        return NO_VALUE
    if isinstance(step, MapStep):
        if is_object(value) and step.key in value:
            return value[step.key]
    elif is_sequence(value) and step.index < len(value):
        return value[step.index]
    return NO_VALUE


def walk_marks(marks: Marks, steps: Sequence[Step], value: Any = NO_VALUE) -> tuple[int, Marks]:
    """One walk of a marks tree along ``steps``: the depth of the first ``true`` (-1 if none), and the
    marks at the end (``True`` when inherited from an ancestor, None when the tree stops short).

    With ``value`` (the value the marks describe), each node on the way is fitted to the value's
    node there (:func:`fit_marks`), so a malformed one fails closed. Without it, only the nodes
    malformed whatever the value (``1``, ``"true"``) do; marks of the wrong kind for a step stop the
    walk, as they do where the path leaves the value. So a walk without the value finds a ``true``
    only where the walk with it finds one too, at the same depth or above. One loop serves both
    walks: without the value, it is the walk with every value node :data:`NO_VALUE`. Each node, the
    root's included, is fitted in one place, before the walk steps into it.

    The types JSON parsers build (dict, list) are tested by identity first: an ``isinstance``
    against the ``Mapping``/``Sequence`` ABCs costs more than the rest of the step.

    >>> from tfjsonpath import New
    >>> walk_marks({"triggers": True}, New("triggers").AtMapKey("x").steps)
    (1, True)
    >>> walk_marks({"a": {"b": [False, True]}}, New("a").AtMapKey("b").steps)
    (-1, [False, True])
    >>> walk_marks({"p": [True]}, New("p").steps), walk_marks({"p": [True]}, New("p").steps, {"p": "hunter2"})
    ((-1, [True]), (1, True))
    """
    fitted = value is not NO_VALUE
    current = marks
    depth, end = 0, len(steps)
    while True:
        if fitted and current is not True and current is not None and current is not False:
            kind = type(current)
            fits = kind is type(value) or value is None or value is NO_VALUE
            if not ((kind is dict or kind is list) and fits):  # the common case is decided without a call
                current = fit_marks(current, value)
        if current is True:
            return depth, True
        if depth == end:
            break
        if current is None or current is False:
            return -1, None
        step = steps[depth]
        kind = type(current)
        if type(step) is MapStep:
            if kind is dict or is_object(current):
                current = current.get(step.key)
                if fitted:
                    fast = type(value) is dict
                    value = value.get(step.key, NO_VALUE) if fast else _value_child(value, step)
            elif is_sequence(current):
                return -1, None  # marks the value did not contradict: the path leaves the value
            else:
                return depth, True  # neither a bool, null nor a container (only unfitted): fails closed
        elif kind is list or is_sequence(current):
            index = step.index
            current = current[index] if index < len(current) else None
            if fitted:
                fast = type(value) is list and index < len(value)
                value = value[index] if fast else _value_child(value, step)
        elif is_object(current):
            return -1, None
        else:
            return depth, True
        depth += 1
    if fitted or current is None or current is False or is_object(current) or is_sequence(current):
        return -1, current
    return depth, True


def marks_at(marks: Marks, steps: Iterable[Step]) -> tuple[bool, int | None]:
    """Whether the value at ``steps`` is marked, and at which depth the first ``true`` was met.

    >>> from tfjsonpath import New
    >>> marks_at({"triggers": True}, New("triggers").AtMapKey("x").steps)
    (True, 1)
    >>> marks_at({"triggers": {"x": False}}, New("triggers").AtMapKey("x").steps)
    (False, None)
    """
    depth, _ = walk_marks(marks, tuple(steps))
    return (True, depth) if depth >= 0 else (False, None)


def with_unknowns(value: Any, unknown: Marks, placeholder: Any) -> Any:
    """``value`` with ``placeholder`` wherever ``unknown`` marks a value unknown until apply, for showing it.

    Terraform leaves an unknown object attribute out of ``after`` and writes an unknown list element
    as null (or leaves the list short): each comes back as the placeholder, at any depth (the walk
    keeps its own stack). Only the containers on the way to a mark are copied, in their order, a key
    the marks add after the value's own; the rest is shared. Marks that do not fit the value fail
    closed (:func:`fit_marks`): a malformed node marks its whole value.

    >>> with_unknowns({"a": "x", "b": [None, "y"]}, {"b": [True, False], "c": True, "a": [True]}, "?")
    {'a': '?', 'b': ['?', 'y'], 'c': '?'}
    >>> with_unknowns({"tags": {}}, {"tags": {"k": True}, "ids": [False, True]}, "?")
    {'tags': {'k': '?'}, 'ids': [None, '?']}
    """
    root: list[Any] = [value]
    stack: list[tuple[Any, Any, Marks]] = [(root, 0, unknown)]
    while stack:
        parent, slot, marks = stack.pop()
        val = parent[slot]
        if marks is not True and marks is not None and marks is not False:
            marks = fit_marks(marks, val)
        if marks is True:
            parent[slot] = placeholder
        elif is_object(marks) and (val is None or is_object(val)):
            copy: dict[Any, Any] = dict(val or {})
            parent[slot] = copy
            for key, sub in marks.items():
                if sub is not None and sub is not False:
                    copy.setdefault(key, None)  # a key only the marks name is added, after the value's own
                    stack.append((copy, key, sub))
        elif is_sequence(marks) and (val is None or is_array(val)):
            items = list(val or ())
            items.extend([None] * (len(marks) - len(items)))
            parent[slot] = items
            stack.extend((items, i, sub) for i, sub in enumerate(marks) if sub is not None and sub is not False)
    return root[0]


def _with_json_members(values: Iterable[str]) -> Iterator[str]:
    """Each of ``values``, and after a JSON object's or array's text the strings of what it encodes
    (:func:`collect_secret_strings`): Terraform's plan shows such a text as that value, ``jsonencode({...})`` with a
    member a line (``+ user = "admin"``), so a member shorter than a window of the text stood alone, unscrubbed.

    >>> list(_with_json_members(['{"user": "admin", "port": 5432}', "plain"]))
    ['{"user": "admin", "port": 5432}', '5432', 'admin', 'port', 'user', 'plain']
    """
    for value in values:
        yield value
        head = value[:1]
        if head != "{" and head != "[" and not (head.isspace() and value.lstrip()[:1] in ("{", "[")):
            continue  # most secrets: no JSON text, told by their first character
        try:
            decoded = json.loads(value, parse_float=Decimal, parse_int=Decimal)
        except (ValueError, RecursionError):
            continue  # not JSON: Terraform shows it as the text it is
        members: set[str] = set()
        collect_secret_strings(decoded, members)
        yield from sorted(members)


#: Secrets with fewer pieces of SUBSTRING_WINDOW characters or more than this have their windows indexed at once.
_INDEXED_NOW: Final = 10_000
#: A text this long, scanned first, looks up only the windows of the pieces it may hold (:meth:`_Scanner._windows_for`).
_LONG_TEXT: Final = 100_000


class _Scanner:
    """Finds, in one pass over a text, every place it shows a secret or a fragment of one.

    A whole piece (a rendering of a secret, or a line or word of it) is found wherever it stands. A
    fragment (a run of :data:`SUBSTRING_WINDOW` or more characters of a longer piece) counts only
    where a renderer could have cut the value: at a quote, whitespace, a line end or an ellipsis
    on either side, or by an escape sequence (see :func:`plancheck._text.at_cut`). So ``hunter2-very-lo...`` is scrubbed, while an address that happens to
    share 8 characters with a secret (``azurerm_key_vault_secret`` and ``my-client_secret``) is not.
    """

    __slots__ = ("_met", "_pieces", "_windows", "long", "searches", "short_heads", "whole")

    def __init__(self, values: Iterable[str]) -> None:
        size = SUBSTRING_WINDOW
        short: dict[int, set[str]] = {}
        long: dict[str, set[str]] = {}
        for value in _with_json_members(values):
            # Every rendering of the value, and the lines and words of it: Terraform wraps a long diagnostic
            # at spaces and pytest diffs line by line, so a line or a word of a secret can stand alone.
            pieces = spellings(value)
            if "\n" in value or "\r" in value:
                pieces.update(value.splitlines())
            words = value.split()
            if words != [value]:  # it holds whitespace (split, at C speed, is the test)
                pieces.update(words)
            for piece in pieces:
                n = len(piece)
                if n >= size:
                    long.setdefault(piece[:size], set()).add(piece)
                elif n >= MIN_SECRET_LENGTH:
                    short.setdefault(n, set()).add(piece)
        self.searches = tuple((n, frozenset(forms)) for n, forms in sorted(short.items()))
        #: The searches of the short pieces by their first characters: most positions of a text are passed over
        #: after one look-up, and the others try only the lengths that start there. A fragment is looked up by
        #: its window: indexing every window's first characters as well cost a plan of 100,000 secrets a fifth
        #: of a second, more than the look-ups it spared in scanning a 700,000-character message.
        starting: dict[str, list[tuple[int, frozenset[str]]]] = {}
        for n, forms in self.searches:  # by length, shortest first: a position's searches keep that order
            for head in {form[:MIN_SECRET_LENGTH] for form in forms}:
                starting.setdefault(head, []).append((n, forms))
        self.short_heads = {head: tuple(searches) for head, searches in starting.items()}
        # Longest first: the first whole piece found at a position is the longest there.
        self.long = {head: tuple(sorted(forms, key=len, reverse=True)) for head, forms in long.items()}
        #: Every piece whole: a text that is one (the common case of a copied secret) is found in one look-up.
        self.whole = frozenset([f for _, forms in self.searches for f in forms] + [f for forms in long.values() for f in forms])
        self._pieces = [piece for forms in self.long.values() for piece in forms]
        # The windows of a few secrets are indexed now; a large plan's when a scan needs them (:meth:`_windows_for`).
        self._windows = windows_of(self._pieces, size) if len(self._pieces) < _INDEXED_NOW else None
        #: A long text scanned before the windows were indexed, and the windows of the pieces it may hold.
        self._met: tuple[str, frozenset[str]] | None = None

    def every_window(self) -> frozenset[str]:
        """Every run of :data:`SUBSTRING_WINDOW` characters of every longer piece (indexed once, on first need)."""
        if self._windows is None:
            self._windows, self._met = windows_of(self._pieces, SUBSTRING_WINDOW), None
        return self._windows

    def _windows_for(self, text: str) -> frozenset[str]:
        """The windows a scan of ``text`` looks up when they are not indexed yet: for the first long text, those of
        the pieces it may hold; for any other text, every one, indexed once (as many short failures need).

        A warning naming thousands of addresses of a large plan is one long text, scanned twice (for a first span,
        then for all): indexing the 1.6 million windows of its 115,000 secrets cost it 0.8 s, where finding the
        pieces it may hold (:func:`plancheck._text.sharing_a_window`) and their windows costs a third of that.
        """
        met = self._met
        if len(text) < SUBSTRING_WINDOW:
            return frozenset()  # a text shorter than a window holds none
        if met is not None and met[0] == text:
            return met[1]
        if met is None and len(text) >= _LONG_TEXT:
            found = windows_of(sharing_a_window(self._pieces, text, SUBSTRING_WINDOW), SUBSTRING_WINDOW)
            self._met = (text, found)
            return found
        return self.every_window()

    def spans(self, text: str, first_only: bool = False) -> list[tuple[int, int]]:
        """The (start, end) of every secret and fragment in ``text``, in order of their start (may overlap)."""
        found: list[tuple[int, int]] = []
        fragments: list[tuple[int, int]] = []
        inside: list[tuple[int, int]] = []
        short_heads, windows, long = self.short_heads, self._windows, self.long
        if windows is None:
            windows = self._windows_for(text)
        head, size = MIN_SECRET_LENGTH, SUBSTRING_WINDOW
        for i in range(len(text) - head + 1):
            for n, forms in short_heads.get(text[i : i + head], ()):
                if text[i : i + n] in forms:
                    if not whole_token(text, i, i + n):
                        inside.append((i, i + n))  # inside a word: a secret only if what bounds it is scrubbed
                        continue
                    found.append((i, i + n))
                    if first_only:
                        return found
            window = text[i : i + size]
            if window in windows:
                for piece in long.get(window, ()):
                    if text.startswith(piece, i):
                        found.append((i, i + len(piece)))
                        if first_only:
                            return found
                        break
                fragments.append((i, i + size))
        # Overlapping windows make one fragment; it counts where a renderer could have cut it.
        run: tuple[int, int] | None = None
        for s, e in fragments:
            if run is not None and s <= run[1]:
                run = (run[0], max(run[1], e))
                continue
            if run is not None and at_cut(text, *run):
                found.append(run)
                if first_only:
                    return found
            run = (s, e)
        if run is not None and at_cut(text, *run):
            found.append(run)
        if inside and found:
            found.extend(bounded_by_spans(text, inside, found))
        found.sort()
        return found


#: The scanner of no secret, which every empty :class:`Secrets` shares: with no piece, it indexes nothing.
_NO_SCANNER: Final = _Scanner(())


def _each_str(texts: Iterable[object], what: str) -> tuple[str, ...]:
    """``texts``, each a str: an item that is none (bytes, a number) was left out as silently as a secret given so,
    and what it was meant to trust was scrubbed. Refused naming ``what`` and where it stands, never what it is (a
    trusted text may have been computed from a secret)."""
    strings: list[str] = []
    for index, text in enumerate(texts):
        if not isinstance(text, str):
            raise ArgumentError(f"{what}[{index}] must be a str, got {type(text).__name__}")
        strings.append(text)
    return tuple(strings)


def _trusted_texts(given: Iterable[str] | Callable[[], Iterable[str]]) -> frozenset[str]:
    # Texts given were checked when given. A function is asked only now, a scrub having found a secret: its error
    # or what it returns (a str trusted its characters) would be a bare TypeError, in the middle of that scrub. Its
    # signature is not read when it is given: that costs more than the failure whose trust it is (a partial's).
    if callable(given):
        try:
            texts = given()
        except TypeError as exc:
            raise ArgumentError("Secrets trusted must be an iterable of str or a function of no argument returning one: "
                            "asked with no argument, the function raised TypeError") from exc
        if isinstance(texts, (str, bytes, Mapping)) or not isinstance(texts, Iterable):
            raise ArgumentError(f"Secrets trusted function must return an iterable of str, got {type(texts).__name__}")
        given = _each_str(texts, "Secrets trusted function's result")
    # A trusted text no longer than the shortest secret has no proper part to keep. It is trusted however a
    # writer spells it (a path's quotes are escaped in the CLI's JSON, which its stream scrubs again).
    return frozenset(form for t in given if len(t) > MIN_SECRET_LENGTH for form in spellings(t))


@public("plancheck")
class Secrets(ReadOnly):
    """A set of secret strings to scrub from any text shown to a user.

    A secret is scrubbed however a message spells it: whole, JSON- or ``repr``-escaped, line by
    line, word by word, and by any run of :data:`SUBSTRING_WINDOW` (8) characters of it standing
    where a renderer cuts a value (next to a quote, whitespace, a line end, an ellipsis or an escape
    sequence), so a
    secret that a renderer truncated, windowed or wrapped is still never shown, while a name that
    merely shares 8 characters with a secret is left alone. Overlapping and adjacent pieces become
    one ``(sensitive)``.

    A piece shorter than the window (a short secret, a short word or line of one) is scrubbed only
    where it stands as a value or a whole token (:func:`plancheck._text.whole_token`), not inside a longer word: a
    secret ``env`` leaves ``environment`` and ``tags_null`` alone. A piece of the window's length or
    longer is scrubbed wherever it stands.

    >>> s = Secrets(["hunter2", "ab"])
    >>> s.scrub("password is hunter2!")
    'password is (sensitive)!'
    >>> "hunter2" in repr(s)
    False
    >>> key = Secrets(["-----BEGIN KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEF\\n-----END KEY-----"])
    >>> key.scrub("+ MIIEvQIBADANBgkqhkiG9w0BAQEF")            # one line of a multi-line secret
    '+ (sensitive)'
    >>> key.scrub("'-----BEGIN KEY-----\\\\nMIIEvQ...'")           # repr-escaped, then truncated
    "'(sensitive)...'"
    >>> Secrets(["my-client_secret-v2"]).scrub("azurerm_key_vault_secret.main")   # shares t_secret only
    'azurerm_key_vault_secret.main'
    >>> Secrets(["env", "prod"]).scrub('environment=prod, input["env"], tags_env')    # short: whole tokens only
    'environment=(sensitive), input["(sensitive)"], tags_env'
    >>> len(Secrets(["(sensitive)", "(sensitive, unmarked)"])), len(Secrets(["ab"]))  # a marker hides nothing
    (0, 0)

    ``values`` is an iterable of str, each item a str: a secret given as bytes or a number is refused, naming
    where it stands (never what it is), as it was left out and shown in clear; so is a ``trusted`` that is no
    iterable of str or function, or an item of it that is no str (refused when given: it was left out, and what it
    was meant to trust scrubbed), or a function that cannot be asked with no argument or returns no iterable of str
    (refused when first asked, as a scrub finds a secret: a str trusted its characters).

    >>> Secrets(["hunter2", b"hunter2"])
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: Secrets values[1] must be a str, got bytes
    >>> Secrets(["hunter2"], trusted=5)
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: Secrets trusted must be an iterable of str (one: trusted=['...']), got int
    >>> Secrets(["hunter2"], trusted=["output.password", 1])
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: Secrets trusted[1] must be a str, got int

    A pickle of Secrets holds the secret strings themselves, in clear, as a plan's pickle holds its document: keep
    it where the plan would be kept. It comes back equal, trusting the same texts (a function of them asked
    when pickling), its scanner built again.

    >>> import pickle
    >>> again = pickle.loads(pickle.dumps(Secrets(["hunter2"]).trusting(lambda: ["output.password"])))
    >>> again == Secrets(["hunter2"]), sorted(again.trusted), again.scrub("output.password = hunter2")
    (True, ['output.password'], 'output.password = (sensitive)')
    """

    __slots__ = ("_scanner", "_sorted", "_trusted", "_values")
    _values: frozenset[str]
    _sorted: tuple[str, ...]
    _scanner: _Scanner
    #: The trusted texts' renderings, or a callable that makes them when a span found makes trust matter.
    _trusted: frozenset[str] | Callable[[], frozenset[str]]

    def __init__(self, values: Iterable[str] = (), trusted: Iterable[str] | Callable[[], Iterable[str]] = ()) -> None:
        # A str, bytes or mapping iterates chars or keys: not the secret meant, nor the text meant to be trusted.
        trusted_now = () if callable(trusted) else trusted  # a function is asked only when trust matters
        for name, texts, one in (("values", values, "Secrets(['...'])"), ("trusted", trusted_now, "trusted=['...']")):
            if isinstance(texts, (str, bytes, Mapping)) or not isinstance(texts, Iterable):
                raise ArgumentError(f"Secrets {name} must be an iterable of str (one: {one}), got {type(texts).__name__}")
        strings = tuple(values)
        # The strings long enough to scrub, none spelled like a hiding marker: a marked map's key "(sensitive)" is no
        # secret to scrub (its scrub is itself, so it hides nothing), while as a secret it hid every unmarked key
        # spelled so, and its windows ("sensitiv") blanked the library's own word wherever it stood.
        kept = frozenset(v for v in strings if isinstance(v, str) and len(v) >= MIN_SECRET_LENGTH and v not in _HIDING_MARKERS)
        if len(kept) < len(strings):  # some left out: a secret given as bytes or a number would be shown in clear
            wrong = next((i for i, v in enumerate(strings) if not isinstance(v, str)), None)
            if wrong is not None:
                raise ArgumentError(f"Secrets values[{wrong}] must be a str, got {type(strings[wrong]).__name__}")
        # Secrets are made to scrub: their scanner is built with them, and shared by every copy that holds the same
        # strings (:meth:`trusting`). A document's values are collected when its ``secrets`` are first asked for (a
        # failure), so building the scanner of a large plan's secrets is part of that, not of every check.
        scanner = _Scanner(kept) if kept else _NO_SCANNER
        # A callable is asked on first need: a document's trusted names are many, and most texts show no secret.
        if callable(trusted):
            names = trusted
            self._set(_values=kept, _scanner=scanner, _trusted=lambda: _trusted_texts(names))
        else:
            self._set(_values=kept, _scanner=scanner, _trusted=_trusted_texts(_each_str(trusted, "Secrets trusted")))

    def trusting(self, texts: Iterable[str] | Callable[[], Iterable[str]]) -> Secrets:
        """These secrets, with ``texts`` trusted: a secret standing inside an occurrence of one is kept.

        Trusted texts are what never comes from a value: the configuration's names (an address
        without its instance keys, ``output.NAME``, ``var.NAME``) and the path a check was given.
        A short secret (shorter than :data:`SUBSTRING_WINDOW`) is kept only where it is a *proper
        part* of a trusted text's occurrence (``tags`` in ``terraform_data.tags``); where it stands
        elsewhere, or is the whole occurrence, it is scrubbed as always, so a secret equal to a
        resource name is still scrubbed as a value. A long secret is scrubbed even inside a trusted
        text: a word cannot be mistaken for it, and a path can be computed from it. ``texts`` is what
        ``trusted`` is to :class:`Secrets`, and refused as it is (a str is no iterable of texts here either).

        >>> s = Secrets(["tags", "hunter2"]).trusting(["terraform_data.tags"])
        >>> s.scrub('terraform_data.tags: tags = "tags", pw = hunter2')
        'terraform_data.tags: (sensitive) = "(sensitive)", pw = (sensitive)'
        >>> sorted(s.trusted)
        ['terraform_data.tags']
        """
        if isinstance(texts, (str, bytes, Mapping)) or not (callable(texts) or isinstance(texts, Iterable)):
            raise ArgumentError(f"Secrets.trusting texts must be an iterable of str (one: trusting(['...'])), got "
                            f"{type(texts).__name__}")
        # A callable (a failure's trust) is asked when needed.
        given = texts if callable(texts) else _each_str(texts, "Secrets.trusting texts")
        base = self._trusted
        made = Secrets.__new__(Secrets)  # the values are already filtered: not again, as __init__ would
        if isinstance(base, frozenset) and isinstance(given, tuple):
            adding = _trusted_texts(given)
            if adding <= base:
                return self
            made._set(_values=self._values, _trusted=base | adding)
        else:
            # Neither the document's names nor these are rendered until a span found makes trust matter.
            made._set(_values=self._values, _trusted=lambda: self.trusted | _trusted_texts(given))
        # The same strings: their scanner serves as it is (each failure's trusting() built it again, a tenth of a
        # second a failure for a plan's 20,000 secrets).
        made._set(_scanner=self._scanner)
        return made

    @property
    def trusted(self) -> frozenset[str]:
        """The trusted texts (:meth:`trusting`).

        >>> Secrets(["hunter2"]).trusted
        frozenset()
        """
        trusted = self._trusted
        if not isinstance(trusted, frozenset):
            trusted = trusted()
            self._set(_trusted=trusted)
        return trusted

    def _spans(self, text: str) -> list[tuple[int, int]]:
        """The spans to scrub in ``text``: the scanner's, less those that hide nothing (:meth:`_filtered`)."""
        found = self._scanner.spans(text)
        return self._filtered(text, found) if found else found  # most texts: nothing found, nothing to filter

    def _filtered(self, text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """``spans`` less those that hide nothing: one inside a marker the library wrote in ``text``
        (``(sensitive, unmarked)``), a short one that is a proper part of an occurrence of a trusted text."""
        spans = _outside_markers(text, spans)
        if not spans or not self.trusted:
            return spans
        # A short span only, and a proper part only: a long secret inside a trusted text was put there
        # from a value (a path computed from a secret), and a span that is the whole occurrence is the
        # trusted text shown as a value.
        return outside_cover(spans, _covering(text, spans, self.trusted), SUBSTRING_WINDOW)

    def scrub_trusted(self, text: str) -> str:
        """Scrub ``text`` that is itself trusted (a path a check was given): only pieces of :data:`SUBSTRING_WINDOW` or more.

        A short secret in it is a word the user wrote (``tags``); a long one was put there from a
        value (``AtMapKey(os.environ["KEY"])``) and is scrubbed as anywhere.

        >>> Secrets(["tags", "hunter2-planted-key"]).scrub_trusted('input["tags"]["hunter2-planted-key"]')
        'input["tags"]["(sensitive)"]'
        """
        if not self._values or _SHOW.get():
            return text
        # Trust spares only short spans (:meth:`_filtered`): the long spans of a scrub are all there is to replace.
        spans = [(s, e) for s, e in self._spans(text) if e - s >= SUBSTRING_WINDOW]
        return _replaced(text, spans)

    @property
    def ordered(self) -> tuple[str, ...]:
        """The secrets, longest first (ties in text order): what a scrubber replaces first, and what pickles.

        >>> Secrets(["abc", "hunter2"]).ordered
        ('hunter2', 'abc')
        """
        # Sorted when asked, not when made: a large plan's secrets are many and most documents never need the order.
        try:
            return self._sorted
        except AttributeError:
            pass
        ordered = tuple(sorted(self._values, key=lambda v: (-len(v), v)))
        self._set(_sorted=ordered)
        return ordered

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, value: object) -> bool:
        return value in self._values

    def __or__(self, other: object) -> Secrets:
        if not isinstance(other, Secrets):
            return NotImplemented
        return Secrets.union((self, other))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Secrets):
            return self._values == other._values
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values)

    def __repr__(self) -> str:
        return f"<Secrets: {len(self._values)} values>"

    def __reduce__(self) -> tuple[Any, ...]:
        # The default pickle fills the slots by setattr, which a read-only Secrets refuses when loading, and carries
        # the scanner (a large plan's is many times its strings) and a function of trusted texts (a lambda, which
        # does not pickle): the strings and the trusted texts are all a Secrets is made from.
        return (secrets_from_state, (self.ordered, self.trusted))

    def touches(self, text: str) -> bool:
        """True if ``text`` shows any secret, or any piece of one that :meth:`scrub` would replace.

        >>> Secrets(["hunter2"]).touches("pw=hunter2"), Secrets(["hunter2"]).touches("hunter")
        (True, False)
        >>> Secrets(["hunter2"]).touches("xhunter2x"), Secrets(["hunter2-long"]).touches("xhunter2-longx")
        (False, True)
        """
        if not self._values:
            return False
        first = self._scanner.spans(text, first_only=True)  # scanned no further than to find one
        # The first span found may hide nothing (:meth:`_filtered`): then, whether any span to scrub is left.
        return bool(first) and bool(self._filtered(text, first) or self._spans(text))

    def finds(self, text: str) -> bool:
        """True if ``text`` holds any secret or piece of one, before trusted texts and markers spare any: when
        False, every scrub of ``text`` is ``text`` itself, whatever it trusts (one scan, stopped at the first find).

        >>> trusting = Secrets(["tags"]).trusting(["terraform_data.tags"])
        >>> trusting.finds("terraform_data.tags"), trusting.touches("terraform_data.tags"), trusting.finds("t.a")
        (True, False, False)
        """
        return bool(self._values) and bool(self._scanner.spans(text, first_only=True))

    def scrub(self, text: str) -> str:
        """Replace every secret and every piece of one in ``text`` by ``(sensitive)``.

        >>> Secrets(["correct horse battery staple"]).scrub("The value correct horse battery\\n│ staple is bad")
        'The value (sensitive)\\n│ (sensitive) is bad'
        """
        if not self._values or _SHOW.get():
            return text
        if text in self._scanner.whole:  # the text is a piece: every span found in it merges into one
            return SENSITIVE
        spans = self._spans(text)
        return _replaced(text, spans)

    @staticmethod
    def union(items: Iterable[Secrets]) -> Secrets:
        """Every secret of ``items`` in one, trusting what each of them trusts (``a | b`` is the union of the two).

        A part that holds nothing (no secret, nothing trusted) adds nothing: a union of one part and such
        parts is that part itself, its scanner as it is. What a front end scrubs its output with, for
        the secrets of every document it heard of.

        >>> s = Secrets.union([Secrets(["hunter2"]), Secrets(), Secrets(["tags"]).trusting(["terraform_data.tags"])])
        >>> s.scrub("terraform_data.tags: pw = hunter2, tags"), sorted(s.trusted)
        ('terraform_data.tags: pw = (sensitive), (sensitive)', ['terraform_data.tags'])
        >>> Secrets.union([]) == Secrets(), Secrets.union([Secrets(), s]) is s
        (True, True)
        """
        try:
            kept = [secrets for secrets in items if secrets._values or secrets._trusted]
        except (AttributeError, TypeError):
            # No iterable, or a part that is no Secrets (its private fields): checked only then, as a check of each
            # part on the way cost every join 18% more.
            if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
                found = type(items).__name__
            else:  # name the first part that is no Secrets (a one-shot iterator, read already, has none left)
                wrong = (type(part).__name__ for part in items if not isinstance(part, Secrets))
                found = f"a {next(wrong, 'part of another type')} among them"
            raise ArgumentError(f"Secrets.union expects an iterable of Secrets, got {found}") from None
        if len(kept) <= 1:
            return kept[0] if kept else NO_SECRETS
        strings = frozenset().union(*(secrets._values for secrets in kept))
        # Every part is filtered and its trusted texts rendered: not again. A document's names are still asked
        # only when a span found makes trust matter. The strings of one part (the others add none): its scanner.
        whole = next((secrets._scanner for secrets in kept if len(secrets._values) == len(strings)), None)
        made = Secrets.__new__(Secrets)
        made._set(_values=strings, _scanner=whole or _Scanner(strings),
                  _trusted=lambda: frozenset().union(*(secrets.trusted for secrets in kept)))
        return made


def _covering(text: str, spans: list[tuple[int, int]], trusted: Iterable[str]) -> list[tuple[int, int]]:
    """The occurrences in ``text`` of the ``trusted`` texts that hold a short span of ``spans`` (under
    :data:`SUBSTRING_WINDOW`): the only ones :func:`plancheck._text.outside_cover` asks about.

    An occurrence holding a short span holds that span's text at some offset; so each trusted text is
    asked where it holds each short span's text (short texts, few of them), and each short span whether
    the text around it is a trusted text holding it there. Searching the whole text for every trusted
    text instead made a warning naming 7,000 addresses of a large plan spend seconds here (thousands
    of names, each a scan of the whole text).

    >>> _covering("a tags_x t.tags: tags", [(2, 6), (11, 15), (17, 21)], ["t.tags", "tags_x", "other"])
    [(2, 8), (9, 15)]
    """
    shorts = {text[s:e] for s, e in spans if e - s < SUBSTRING_WINDOW}
    # Where each short text stands in the trusted texts: by its offset in them and their length, the trusted
    # texts holding it there. A span is asked once per (offset, length), not once per trusted text.
    holding: dict[str, dict[tuple[int, int], set[str]]] = {short: {} for short in shorts}
    for form in trusted:
        for short in shorts:
            at = form.find(short)
            while at >= 0:
                holding[short].setdefault((at, len(form)), set()).add(form)
                at = form.find(short, at + 1)
    cover: set[tuple[int, int]] = set()
    for s, e in spans:
        if e - s < SUBSTRING_WINDOW:
            for (offset, length), forms in holding[text[s:e]].items():
                start = s - offset
                if start >= 0 and text[start : start + length] in forms:
                    cover.add((start, start + length))
    return sorted(cover)


#: Every marker the library writes in place of a value (:data:`MARKERS`), found in a text to scrub.
_MARKER: Final = re.compile("|".join(re.escape(marker) for marker in MARKERS))
#: The markers' opening words (``(sensitive``, ``(known``): a text without one holds no marker, and is not searched
#: for one (10 µs a KB of text with a span found, the most of which holds none).
_MARKER_OPENINGS: Final = frozenset(marker.split()[0].rstrip(",)") for marker in MARKERS)


def _outside_markers(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` (sorted by start) less each run of them (as :func:`_replaced` joins them) that is a proper part of
    one of the library's markers (:data:`MARKERS`) in ``text``.

    A secret spelled like a word of a marker (``sensitive``, ``known``) is no reason to scrub inside it, which
    garbled it (``(sensitive), unmarked)``, ``((sensitive) after apply)``) and hid nothing: the marker's words are
    the library's. A run that is a whole marker is a secret spelled so, or holding it (``(known after apply)``,
    ``token (known after apply)``), and one reaching past a marker a secret standing there: both are scrubbed.

    >>> _outside_markers("a: (sensitive, unmarked) x", [(4, 14), (25, 26)])
    [(25, 26)]
    >>> _outside_markers("(known after apply)", [(1, 6), (7, 12)]), _outside_markers("(known after apply)", [(0, 8), (6, 19)])
    ([], [(0, 8), (6, 19)])
    """
    if not any(opening in text for opening in _MARKER_OPENINGS):
        return spans
    markers = [(m.start(), m.end()) for m in _MARKER.finditer(text)]
    if not markers:
        return spans
    kept: list[tuple[int, int]] = []
    first = 0
    while first < len(spans):
        (start, end), last = spans[first], first + 1
        while last < len(spans) and spans[last][0] <= end:
            end = max(end, spans[last][1])
            last += 1
        if not any(a <= start and end <= b and end - start < b - a for a, b in markers):
            kept.extend(spans[first:last])
        first = last
    return kept


def _replaced(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each of ``spans`` (sorted by start, maybe overlapping) replaced by one ``(sensitive)`` per run."""
    if not spans:
        return text
    out: list[str] = []
    done = 0
    start, end = spans[0]
    for s, e in spans[1:]:
        if s <= end:
            end = max(end, e)
            continue
        out.extend((text[done:start], SENSITIVE))
        done, (start, end) = end, (s, e)
    out.extend((text[done:start], SENSITIVE, text[end:]))
    return "".join(out)


NO_SECRETS: Final = Secrets()


def secrets_state(secrets: Secrets) -> tuple[tuple[str, ...], frozenset[str], object]:
    """What :func:`secrets_from_state` rebuilds ``secrets`` from: its strings, its trusted texts' renderings and
    its scanner (what scrubbing costs most is building it, not using it).

    How a worker process hands a plan's secrets to the process that writes the output (``tfplancheck
    PLAN PLAN ...``), which scrubs that plan's part of the output with them as if it had read the plan; the
    pipe between them is the command's own, nothing is shown. (A pickle of Secrets itself carries no scanner: the
    process it goes to builds it again.)

    >>> values, trusted, _ = secrets_state(Secrets(["hunter2"]).trusting(["output.password"]))
    >>> values, trusted
    (('hunter2',), frozenset({'output.password'}))
    """
    if not secrets._values:
        return secrets.ordered, secrets.trusted, None
    secrets._scanner.every_window()  # the process it goes to scrubs many texts with it
    return secrets.ordered, secrets.trusted, secrets._scanner


def secrets_from_state(values: Iterable[str], trusted: Iterable[str], scanner: object = None) -> Secrets:
    """The :class:`Secrets` :func:`secrets_state` described: the same strings, trusted renderings and scanner.

    >>> import pickle
    >>> s = Secrets(["hunter2", "tags"]).trusting(["terraform_data.tags"])
    >>> again = secrets_from_state(*pickle.loads(pickle.dumps(secrets_state(s))))
    >>> again.scrub("terraform_data.tags: tags, hunter2") == s.scrub("terraform_data.tags: tags, hunter2")
    True
    """
    strings = frozenset(values)
    if not isinstance(scanner, _Scanner):
        scanner = _Scanner(strings) if strings else _NO_SCANNER
    made = Secrets.__new__(Secrets)  # the strings are filtered and the texts rendered already: not again
    made._set(_values=strings, _trusted=frozenset(trusted), _scanner=scanner)
    return made


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, int):
        return number_text(value)
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    return f"<{type(value).__name__}>"


def render_value(value: Any, marks: Marks = None, secrets: Secrets = NO_SECRETS) -> str:
    """Render a JSON value compactly, with every marked subtree and secret shown as ``(sensitive)``.

    >>> render_value({"a": "x", "b": [1, "pw"]}, {"b": [False, True]})
    '{"a": "x", "b": [1, (sensitive)]}'
    >>> render_value("user=hunter2", None, Secrets(["hunter2"]))
    '(sensitive)'
    >>> render_value({"p": "hunter2", "q": "x"}, {"p": [True], "q": "true"})  # malformed marks fail closed
    '{"p": (sensitive), "q": (sensitive)}'
    """
    return rendered(value, marks, secrets)[0]


def rendered(value: Any, marks: Marks = None, secrets: Secrets = NO_SECRETS) -> tuple[str, bool]:
    """:func:`render_value`'s text, and whether it hid anything (a marked subtree, a value or key touching a secret).

    Asked instead of looking for ``(sensitive)`` in the text, which a value may hold as plain data (a map key
    spelled so) without anything hidden.

    >>> rendered({"(sensitive)": "x"}), rendered({"pw": "x"}, {"pw": True})
    (('{"(sensitive)": "x"}', False), ('{"pw": (sensitive)}', True))
    """
    reveal = _SHOW.get()
    out: list[str] = []
    size = 0
    hid = False
    # Iterative, so a 10,000-level document renders without RecursionError.
    stack: list[tuple[Any, Marks] | str] = [(value, marks)]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            size += len(item)
        else:
            val, mk = item
            if mk is not True and mk is not None and mk is not False:
                mk = fit_marks(mk, val)  # a malformed marks node fails closed
            if mk is True and not reveal:
                out.append(SENSITIVE)
                size += len(SENSITIVE)
                hid = True
            elif isinstance(val, Mapping):
                entries = list(val.items())
                stack.append("}")
                for i in range(len(entries) - 1, -1, -1):
                    k, v = entries[i]
                    if isinstance(k, str):
                        stack.append((v, child_marks(mk, MapStep(k))))
                    else:  # marks cannot name a key that is not a string (JSON keys are): it fails closed
                        stack.append((v, True if contains_sensitive(mk) else None))
                    key_text = json.dumps(k, ensure_ascii=False) if isinstance(k, str) else _scalar(k)
                    if not reveal and secrets.touches(key_text):
                        key_text = SENSITIVE
                        hid = True
                    stack.append(("" if i == 0 else ", ") + key_text + ": ")
                stack.append("{")
            elif isinstance(val, (list, tuple)):
                stack.append("]")
                for i in range(len(val) - 1, -1, -1):
                    stack.append((val[i], child_marks(mk, SliceStep(i))))
                    if i:
                        stack.append(", ")
                stack.append("[")
            else:
                # A string is asked before it is spelled; a number as it is spelled (a sensitive variable's, copied).
                text = _scalar(val)
                asked = val if isinstance(val, str) else text
                if not reveal and type(val) is not bool and val is not None and secrets.touches(asked):
                    text = SENSITIVE
                    hid = True
                out.append(text)
                size += len(text)
        if size > MAX_RENDER_CHARS:
            out.append(" …(truncated)")
            break
    return "".join(out), hid


def contains_sensitive(marks: Marks) -> bool:
    """True if any value within ``marks`` is marked; a node that is neither a bool, null nor a
    container (``1``, ``"true"``) counts as marked (it fails closed).

    >>> contains_sensitive({"a": [False, {"b": True}]}), contains_sensitive({"a": False})
    (True, False)
    >>> contains_sensitive({"a": 1}), contains_sensitive("true"), contains_sensitive([None])
    (True, True, False)
    """
    stack = [marks]
    while stack:
        m = stack.pop()
        if m is True:
            return True
        if m is None or m is False:
            continue
        if is_object(m):
            stack.extend(m.values())
        elif is_sequence(m):
            stack.extend(m)
        else:
            return True
    return False


def collect_secret_strings(value: Any, found: set[str]) -> None:
    """Add to ``found`` the strings of a secret value: THE rule every collector of secrets follows.

    The strings of a secret value are every string in it, every key of every object in it (a
    sensitive map's keys are as secret as its values: Terraform quotes them in its errors, as in
    ``element "alice": a number is required``), and every spelling of every number in it
    (:func:`plancheck._text.number_spellings`). A bool or null shows nothing secret; a list and a tuple are walked
    alike; anything else (an unknown's marker, a wrapper) holds nothing this rule can spell.

    Which values are secret is the collector's to decide (marks, a schema's sensitive attributes,
    a ``sensitive`` variable or output, :class:`~plancheck.acceptance.Sensitive`); what strings a
    secret value holds is decided here only. Iterative, with the types JSON parsers build tested
    by identity first: a large plan marks tens of thousands of values. A value holding a cycle never comes here:
    every entry that takes Python values refuses one first, with its own typed error naming where (a guard here
    would cost every large plan a third of this walk).

    >>> found = set(); collect_secret_strings({"alice": ["s3cret", 7, True, None], "n": Decimal("1.10")}, found)
    >>> sorted(found)
    ['1.1', '1.10', '7', 'alice', 'n', 's3cret']
    """
    add = found.add
    stack: list[Any] = [value]
    pop, extend = stack.pop, stack.extend
    while stack:
        val = pop()
        kind = type(val)
        if kind is str:
            add(val)
        elif kind is dict or isinstance(val, Mapping):
            for k in val:
                if type(k) is str:
                    add(k)
                else:
                    extend((k,))  # a key that is not a string (a Python value's): spelled by the same rule
            extend(val.values())
        elif kind is list or kind is tuple or isinstance(val, (list, tuple)):
            extend(val)
        elif isinstance(val, str):
            add(str(val))
        elif kind is int:
            add(number_text(val))
        elif isinstance(val, (int, float, Decimal)) and kind is not bool:
            found.update(number_spellings(val))


def secret_strings(value: Any) -> frozenset[str]:
    """The strings of a secret value, by the one rule of :func:`collect_secret_strings`.

    >>> sorted(secret_strings({"k": ["a", 1.5, {"x": None}], "big": Decimal("1E+3")}))
    ['1.5', '1000', '1E+3', 'a', 'big', 'k', 'x']
    """
    found: set[str] = set()
    collect_secret_strings(value, found)
    return frozenset(found)
