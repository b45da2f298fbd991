"""The matcher engine under knownvalue, the comparers and every check kind: the Check base class,
the engine that runs a tree of checks against a JSON value, and the JSON value model they share.

Everything here iterates with explicit stacks: a check built from a 10,000-level
document must hash, compare, print and run without RecursionError. Each check
describes itself through a few small hooks (``_ident``, ``_kids``,
``_repr_parts``, ``_text_parts``, ``_visit``) and the engine does the walking.

The JSON value model the matchers and comparers share: type names and exact numbers.

Values are parsed JSON: ``str``, ``bool``, ``int``, ``decimal.Decimal`` (our
loader's non-integers), ``float`` (other loaders), ``None``, ``list`` (or
``tuple``) and ``dict`` (any ``Mapping``). ``True`` is never a number and ``1``
never a bool.

A ``float`` stands for the shortest decimal that reads back as it (its
``repr``): that is the number the JSON text most likely said, so ``1.23`` from
``json.loads`` equals ``Decimal("1.23")`` from our loader.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Hashable, Mapping, Sequence
from decimal import Decimal
from typing import Any, ClassVar, Final, NoReturn, TypeAlias

from tfjsonpath import MapStep, Path, Step
from tfjsonpath._jsontypes import is_array, is_json_scalar, is_number, is_object, plural

from .._documents.resolve import UNKNOWN_SHOWN
from .._errors import ArgumentError, RegexTimeoutError, ValueMismatchError
from .._frozen import public
from .._redact import (
    NO_SECRETS,
    NO_VALUE,
    SENSITIVE,
    Marks,
    Secrets,
    child_marks,
    contains_sensitive,
    render_value,
    rendered,
    sensitive_shown,
    with_unknowns,
)
from .._text import quote

__all__ = [
    "Check",
    "Child",
    "Ctx",
    "ValueCheck",
    "Visit",
    "first_failure",
    "numbers_equal",
    "plural",
    "quote",
    "require_check",
    "search_pattern",
    "to_decimal",
]


# pytest hides this module's frames from tracebacks: failures point at the user's test line,
# and the library's locals (which may hold raw values) are never printed.
__tracebackhide__ = True

# Longest expected-value text shown in a message; beyond it the text is cut.
MAX_TEXT_CHARS: Final = 4000

#: A child task produced by a visit: the step into the value, the check for it, the child value.
Child: TypeAlias = tuple[Step, "Check", Any]
#: What a visit returns: None (passed), a reason (failed here), or child tasks to run next.
Visit: TypeAlias = "str | list[Child] | None"


#: The longest one search of a user's regular expression runs, with the ``regex`` extra installed (seconds).
REGEX_SECONDS: Final = 10.0


def search_pattern(pattern: re.Pattern[str], text: str, owner: str, sensitive: bool = False) -> bool:
    """True if ``pattern`` finds a match in ``text`` (``pattern.search``, Go's ``MatchString``), in bounded time.

    Python's ``re`` backtracks, so a pattern such as ``(a|aa)+$`` may never end on a long value, where Go's
    RE2 runs in linear time. With the ``regex`` extra installed the search runs there, in its version 0
    (``re``'s syntax and meaning), for at most :data:`REGEX_SECONDS`, and raises
    :class:`~plancheck.RegexTimeoutError` naming ``owner`` past them (and the text's length, unless it is
    ``sensitive``); without it, or for a pattern only ``re`` reads, ``re`` runs it unbounded, as before.

    >>> search_pattern(re.compile("^ami-"), "ami-0abc", "StringRegexp"), search_pattern(re.compile("^ami-"), "i-1", "S")
    (True, False)
    """
    bounded = _bounded(pattern.pattern, pattern.flags)
    if bounded is None or not text or (bounded.plain_only and not _plain(text)):
        return pattern.search(text) is not None
    try:
        return bounded.compiled.search(text, timeout=REGEX_SECONDS) is not None
    except TimeoutError:
        raise RegexTimeoutError(owner, REGEX_SECONDS, None if sensitive else len(text)) from None


#: The flags of re that the regex library has too, by name (their values differ: re.ASCII is regex's VERSION1).
_FLAG_NAMES: Final = ("ASCII", "IGNORECASE", "MULTILINE", "DOTALL", "VERBOSE", "UNICODE")
#: What the regex library reads otherwise than re even in its version 0: a POSIX class or collating element
#: (``[[:alpha:]]``, a set and a ``]`` in re) and a fuzzy constraint (``(ab){e<=1}``, literal text in re).
#: A pattern that may hold one is searched by re, as before.
_READ_OTHERWISE: Final = re.compile(r"\[[:=.]|\{[^}]*[A-Za-z]")
#: A class escape (``\w \W \s \S \d \D \b \B``): under Unicode the regex library's classes follow its own, newer
#: Unicode tables (``\w`` takes the combining marks, not ``²``; ``\s`` leaves out ``\x1c``-``\x1f``), re's follow
#: ``str``'s methods. On plain text (:func:`_plain`) they agree. An escaped backslash before the letter only
#: makes the search ask for plain text when it need not.
_CLASS_ESCAPE: Final = re.compile(r"\\[wWsSdDbB]")
#: Case-insensitive matching somewhere in the pattern (the flag, or an inline ``(?i)`` / ``(?i:...)``): regex keeps
#: the dotless ``ı`` apart from ``i``, re does not. On plain text with a pattern that names no character from
#: :data:`_DOTLESS` on they agree.
_INLINE_IGNORECASE: Final = re.compile(r"\(\?[aiLmsux-]*i")
#: The first character whose case folding the two engines may read otherwise (``İ``, then the dotless ``ı``): a
#: case-insensitive pattern naming one (or any character past it, or a ``\u``/``\U`` escape, which may) is searched by re.
_DOTLESS: Final = 0x130
_WIDE_ESCAPE: Final = re.compile(r"\\[uU]")
#: An inline ``u`` flag: a part of the pattern read under Unicode even when the whole is ASCII.
_INLINE_UNICODE: Final = re.compile(r"\(\?[aiLmsux-]*u")
#: The characters of ASCII on which the two engines' ``\s`` disagree (re's ``str.isspace`` takes them).
_SEPARATORS: Final = re.compile("[\x1c-\x1f]")


class _Bounded:
    """The regex library's twin of a pattern, and whether it reads the pattern as re does only on plain text."""

    __slots__ = ("compiled", "plain_only")

    def __init__(self, compiled: Any, plain_only: bool) -> None:
        self.compiled = compiled
        self.plain_only = plain_only


def _plain(text: str) -> bool:
    """True for a text on which the two engines' classes and case folding agree: ASCII but the separators U+001C-F."""
    return text.isascii() and _SEPARATORS.search(text) is None


@functools.lru_cache(maxsize=256)
def _bounded(pattern: str, flags: int) -> _Bounded | None:
    """The ``regex`` library's compiled twin of a pattern: None without the extra, for a pattern it reads otherwise
    than re (:data:`_READ_OTHERWISE`, a case-insensitive one that may name the dotless ``ı``) or refuses.

    Where the two read a pattern alike only on plain text (its class escapes or case-insensitive letters under
    Unicode), the twin says so, and another text is searched by re: a check's verdict never depends on whether
    the extra is installed. Imported on the first search: a session that searches no pattern does not load it."""
    if _READ_OTHERWISE.search(pattern):
        return None
    ignorecase = bool(flags & re.IGNORECASE) or _INLINE_IGNORECASE.search(pattern) is not None
    ascii_only = bool(flags & re.ASCII) and _INLINE_UNICODE.search(pattern) is None
    if ignorecase and not ascii_only and (max(map(ord, pattern), default=0) >= _DOTLESS or _WIDE_ESCAPE.search(pattern)):
        return None
    try:
        import regex
    except ImportError:
        return None
    same = regex.VERSION0
    for name in _FLAG_NAMES:
        if flags & getattr(re, name):
            same |= getattr(regex, name)
    try:
        compiled = regex.compile(pattern, same)
    except regex.error:
        return None
    return _Bounded(compiled, not ascii_only and (ignorecase or _CLASS_ESCAPE.search(pattern) is not None))


class Ctx:
    """What a run needs besides the value: the secrets to scrub and whether revealing is on.

    ``unknown_passes`` makes every unknown value pass every check (a wildcard): a run that fails
    even so fails whatever the unknown values turn out to be (the whole-plan checks' "fail"
    verdict, apart from "unknown until apply").
    """

    __slots__ = ("reveal", "secrets", "unknown_passes")
    reveal: bool
    secrets: Secrets
    unknown_passes: bool

    def __init__(self, secrets: Secrets, reveal: bool, unknown_passes: bool = False) -> None:
        self.secrets = secrets
        self.reveal = reveal
        self.unknown_passes = unknown_passes

    def hidden(self, marks: Marks) -> bool:
        """True when the node under ``marks`` is sensitive and its content must not be shown."""
        return marks is True and not self.reveal

    def got(self, value: Any, marks: Marks) -> str:
        """The actual value, rendered with every sensitive part as ``(sensitive)``."""
        return render_value(value, marks, self.secrets)

    def shown(self, value: Any, marks: Marks) -> tuple[str, bool]:
        """:meth:`got`'s text, and whether it hid anything (then no expected literal is shown beside it)."""
        return rendered(value, marks, self.secrets)

    def lit(self, text: str, marks: Marks, actual: Any = None) -> str:
        """An expected literal, hidden when it is or holds a secret, or when the ``actual`` value
        it is compared with is hidden: a near miss would give the secret away."""
        if self.reveal:
            return text
        if marks is True or self.secrets.touches(text):
            return SENSITIVE
        if isinstance(actual, str) and self.secrets.touches(actual):
            return SENSITIVE
        if is_number(actual) and rendered(actual, None, self.secrets)[1]:
            return SENSITIVE  # a number is a secret by its spelling (a sensitive variable's, copied unmarked)
        return text

    def run(self, check: Check, value: Any, marks: Marks, unknown: Marks) -> Failure | None:
        """Run ``check`` against ``value`` as a separate match (used by set checks)."""
        return first_failure(check, value, marks, unknown, self)


class _Frame:
    # A linked path, so descending costs O(1) and only a failure builds a Path.
    __slots__ = ("parent", "step")

    def __init__(self, parent: _Frame | None, step: Step) -> None:
        self.parent = parent
        self.step = step


class Failure:
    """Where (relative to the checked value) and why a check failed, and the check and value that failed there.

    ``check`` and ``value`` (with its ``marks``) are the node that failed; ``hidden`` is True when
    the failure is reported at a sensitive ancestor instead, and ``unknown`` when the value is unknown;
    ``unknown_marks`` marks the value's unknown parts.
    """

    __slots__ = ("check", "frame", "hidden", "marks", "reason", "unknown", "unknown_marks", "value")

    def __init__(
        self,
        frame: _Frame | None,
        reason: str,
        check: Check | None = None,
        value: Any = None,
        marks: Marks = None,
        hidden: bool = False,
        unknown: bool = False,
        unknown_marks: Marks = None,
    ) -> None:
        self.unknown_marks = unknown_marks
        self.frame = frame
        self.reason = reason
        self.check = check
        self.value = value
        self.marks = marks
        self.hidden = hidden
        self.unknown = unknown

    def steps(self) -> list[Step]:
        """The steps from the checked value down to the failing node."""
        out: list[Step] = []
        frame = self.frame
        while frame is not None:
            out.append(frame.step)
            frame = frame.parent
        out.reverse()
        return out


_VISIBLE: Final = object()  # marks the "sensitive root" slot of a node that is not hidden


def first_failure(check: Check, value: Any, marks: Marks, unknown: Marks, ctx: Ctx) -> Failure | None:
    """Run a check tree depth-first, in order, and return the first failure (None if it matches).

    A failure inside a hidden (sensitive) value is reported at that value's own path: the
    steps below it would name its keys, and the keys of a sensitive map are secret too.
    """
    root_hidden: Any = None if ctx.hidden(marks) else _VISIBLE
    stack: list[tuple[Check, Any, _Frame | None, Marks, Marks, Any]] = [
        (check, value, None, marks, unknown, root_hidden)
    ]
    while stack:
        current, val, frame, mk, unk, hidden_at = stack.pop()
        if unk is True:
            if ctx.unknown_passes:
                continue
            # Unknown values fail every check, Null and NotNull included: nothing is known about them yet.
            return _failure(Failure(frame, "value is unknown", current, None, mk, unknown=True), hidden_at)
        outcome = current._visit(val, mk, unk, ctx)
        if outcome is None:
            continue
        if isinstance(outcome, str):
            return _failure(Failure(frame, outcome, current, val, mk, unknown_marks=unk), hidden_at)
        for step, kid, kid_value in reversed(outcome):
            kid_frame = _Frame(frame, step)
            kid_marks = child_marks(mk, step)
            kid_hidden = kid_frame if hidden_at is _VISIBLE and ctx.hidden(kid_marks) else hidden_at
            stack.append((kid, kid_value, kid_frame, kid_marks, child_marks(unk, step), kid_hidden))
    return None


def _failure(failure: Failure, hidden_at: Any) -> Failure:
    if hidden_at is _VISIBLE or hidden_at is failure.frame:
        return failure
    return Failure(hidden_at, f"inside the sensitive value: {failure.reason}", failure.check, hidden=True)


def shown_expected_actual(failure: Failure, ctx: Ctx) -> tuple[str, str | None]:
    """The failing check's expected value and the actual value as message text, both redacted.

    The expected text is hidden when it touches a secret, or when any part of the value it was
    compared with is hidden (a near miss would give the secret away). The actual text is None
    for an unknown value (there is nothing to show).
    """
    check = failure.check
    if failure.hidden or check is None:
        return SENSITIVE, SENSITIVE
    actual, hid = None, False
    if not failure.unknown:
        # Terraform leaves an unknown attribute out of `after`: shown as <unknown>, the value a check counted
        # ("extra key(s): "u"") is the value the message shows.
        shown = failure.value
        if failure.unknown_marks:
            shown = with_unknowns(shown, failure.unknown_marks, UNKNOWN_SHOWN)
        actual, hid = ctx.shown(shown, failure.marks)
    expected = str(check)
    if ctx.reveal:
        return expected, actual
    if ctx.secrets.touches(expected):
        return SENSITIVE, actual
    if contains_sensitive(failure.marks) or hid:
        hidden = _compared_hidden(check, NO_VALUE if failure.unknown else failure.value, failure.marks, ctx)
        expected = _render(check, "_text_parts", MAX_TEXT_CHARS, hidden)
    return expected, actual


def _a_key_hidden(value: Mapping[str, Any], marks: Marks, ctx: Ctx) -> bool:
    """True when a key of ``value`` is not shown (a secret), as a keyed check's own message hides keys."""
    return any(ctx.lit(quote(key), marks) == SENSITIVE for key in value)


def _compared_hidden(root: Check, value: Any, marks: Marks, ctx: Ctx) -> set[int]:
    """The parts of ``root``'s expected value (by ``id``) compared with a hidden part of ``value``.

    The expected value is the user's own, and shows, except where it was compared with a hidden value (a
    literal beside it would tell what the secret is, or is not): part by part, so a map's check for a key
    the value lacks shows beside a secret under another key. A set's element checks are compared with
    every element, a keyed check's keys with the value's keys (a secret one hides it whole), a size check
    with the count alone (hidden only when the whole value is).
    """
    hidden: set[int] = set()
    stack: list[tuple[Check, Any, Marks]] = [(root, value, marks)]
    while stack:
        check, actual, at = stack.pop()
        if at is True:
            hidden.add(id(check))
            continue
        parts = check._compared_with(actual)
        if not parts and not check._compares_count and actual is not NO_VALUE and ctx.shown(actual, at)[1]:
            hidden.add(id(check))  # compared with the value itself (a size check: with its count)
        if is_object(actual) and any(isinstance(step, MapStep) for _, step, _ in parts) and _a_key_hidden(actual, at, ctx):
            hidden.add(id(check))  # its keys were compared with the value's, a secret among them
            continue
        for kid, step, child in parts:
            if step is None:  # compared with every element: hidden when one of them is
                if actual is not NO_VALUE and ctx.shown(actual, at)[1]:
                    hidden.add(id(kid))
            elif child is not NO_VALUE:
                stack.append((kid, child, child_marks(at, step)))
    return hidden


def _attributes(check: Check) -> dict[str, Any]:
    """A user-written check's attributes, in the order its ``__init__`` set them."""
    return dict(vars(check)) if hasattr(check, "__dict__") else {}


def _hashable(value: Any) -> Hashable:
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value  # type: ignore[no-any-return]


_UNSEALED: Final = "{} is not frozen: end its __init__ with super().__init__()"


def _sealed(check: Check) -> bool:
    try:
        object.__getattribute__(check, "_hash")
    except AttributeError:
        return False
    return True


def _rebuild(cls: type[Check], attributes: dict[str, Any]) -> Check:
    """Unpickle a user-written check: its attributes back, then sealed."""
    check = cls.__new__(cls)
    for key, value in attributes.items():
        object.__setattr__(check, key, value)
    Check.__init__(check)
    return check


def _is_json_like(value: Any) -> bool:
    return is_json_scalar(value) or is_array(value) or is_object(value)


def _same_structure(a: Check, b: Check) -> bool:
    stack: list[tuple[Check, Check]] = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x is y:
            continue
        if type(x) is not type(y) or x._hash != y._hash or x._ident() != y._ident():
            return False
        kx, ky = x._kids(), y._kids()
        if len(kx) != len(ky):
            return False
        stack.extend(zip(kx, ky, strict=True))
    return True


def _render(root: Check, hook: str, limit: int | None, hidden: set[int] | frozenset[int] = frozenset()) -> str:
    out: list[str] = []
    size = 0
    stack: list[str | Check] = [root]
    while stack:
        item = stack.pop()
        if not isinstance(item, str) and id(item) in hidden:
            item = SENSITIVE
        if isinstance(item, str):
            out.append(item)
            size += len(item)
            if limit is not None and size > limit:
                out.append(" …(truncated)")
                break
        else:
            parts: Sequence[str | Check] = getattr(item, hook)()
            stack.extend(reversed(parts))
    return "".join(out)


@public("plancheck.knownvalue")
class Check:
    """Base class of every knownvalue check: a frozen, hashable description of an expected JSON value.

    ``check.CheckValue(value)`` raises :class:`~plancheck.ValueMismatchError` naming
    where and why ``value`` does not match; ``check == value`` answers the same
    question with True/False (for a plain ``assert``); ``check == other_check``
    compares the checks themselves. ``repr`` is the constructor form and ``str``
    the expected value as text.

    >>> from plancheck import knownvalue as kv
    >>> kv.ListExact([kv.StringExact("a")]) == ["a"], ["b"] == kv.ListExact([kv.StringExact("a")])
    (True, False)
    >>> kv.ListExact([kv.StringExact("a")]).CheckValue(["b"])
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: [0]: expected value "a" for StringExact check, got: "b"

    **Writing your own check** (Go: a type implementing ``knownvalue.Check``): subclass ``Check``,
    set your attributes in ``__init__`` and end it with ``super().__init__()`` (the check is
    frozen from then on), implement :meth:`mismatch` (Go's ``CheckValue``: why a value does not
    match, or None) and ``__str__`` (Go's ``String``: the expected value as text). Equality,
    hashing, pickling and a constructor-form repr come from the attributes; the check nests in
    every other check and runs in every plan, state and query check. A message that shows a
    sensitive value is replaced by a neutral one, and secrets are scrubbed out of it.

    >>> class StartsWith(kv.Check):
    ...     def __init__(self, prefix):
    ...         self.prefix = prefix
    ...         super().__init__()
    ...     def mismatch(self, value):
    ...         if isinstance(value, str) and value.startswith(self.prefix):
    ...             return None
    ...         return f"expected a string starting with {self.prefix!r}, got {value!r}"
    ...     def __str__(self):
    ...         return f"<starts with {self.prefix!r}>"
    >>> check = kv.ListExact([StartsWith("ami-")])
    >>> check == ["ami-0abc"], StartsWith("ami-") == StartsWith("ami-"), check
    (True, True, ListExact([StartsWith(prefix='ami-')]))
    >>> check.CheckValue(["i-0abc"])
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: [0]: expected a string starting with 'ami-', got 'i-0abc'
    """

    __slots__ = ("_hash",)
    _hash: int
    #: The check's name in messages (Go's type name): "StringExact", "ListPartial", ...; a
    #: user-written check's class name unless it sets its own.
    name: ClassVar[str] = "Check"
    #: True for a check compared with a collection's count alone (a size check): its expected text tells
    #: nothing of the elements, so it shows beside hidden ones.
    _compares_count: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "name" not in cls.__dict__:
            cls.name = cls.__name__

    def __init__(self) -> None:
        """Freeze the check: a user-written check calls this last in its ``__init__``."""
        self._seal()

    # -- the hook of a user-written check --------------------------------------------------------

    def mismatch(self, value: Any) -> str | None:
        """Why ``value`` (a parsed JSON value) does not match this check, or None if it does.

        Go's ``CheckValue(value) error``: override it in a check of your own (see the class
        docstring). Numbers that are not integers arrive as :class:`decimal.Decimal`. A built-in check
        answers with the message :meth:`CheckValue` raises.

        >>> from plancheck import knownvalue as kv
        >>> kv.ListExact([kv.StringExact("a")]).mismatch(["b"]), kv.StringExact("a").mismatch("a")
        ('[0]: expected value "a" for StringExact check, got: "b"', None)
        """
        if type(self)._visit is Check._visit:  # a check of the user's own, whose _visit asks this hook: theirs to write
            raise NotImplementedError(f"{type(self).__name__} must implement mismatch(value)")
        # A built-in check compares through its _visit and never asked this hook: it said "StringExact must
        # implement mismatch(value)", a bare NotImplementedError, to a caller of a documented method.
        try:
            self.CheckValue(value)
        except ValueMismatchError as exc:
            return str(exc)
        return None

    # -- hooks of the built-in checks (a user-written check gets them from its attributes) -------

    def _ident(self) -> tuple[Hashable, ...]:
        """Everything that identifies this check except its child checks."""
        return tuple((key, _hashable(value)) for key, value in _attributes(self).items())

    def _kids(self) -> Sequence[Check]:
        """The child checks, in a canonical order."""
        return ()

    def _compared_with(self, value: Any) -> Sequence[tuple[Check, Step | None, Any]]:
        """Each child check, the step into ``value`` it is compared at and the element there (:data:`NO_VALUE`
        when absent); a step of None for a check compared with every element (a set's). What a failure's
        expected text hides beside a hidden value (:func:`shown_expected_actual`)."""
        return [(kid, None, NO_VALUE) for kid in self._kids()]

    def _args(self) -> tuple[Any, ...]:
        """The constructor arguments (for pickling and copying)."""
        raise NotImplementedError

    def _repr_parts(self) -> Sequence[str | Check]:
        """The constructor-form repr as text pieces and child checks (rendered in their place)."""
        if type(self).__repr__ is not Check.__repr__:
            return (repr(self),)
        fields = ", ".join(f"{key}={value!r}" for key, value in _attributes(self).items())
        return (f"{type(self).__name__}({fields})",)

    def _text_parts(self) -> Sequence[str | Check]:
        """The expected value as text pieces and child checks."""
        if type(self).__str__ is not Check.__str__:
            return (str(self),)
        return (f"<{self.name}>",)

    def _visit(self, value: Any, marks: Marks, unknown: Marks, ctx: Ctx) -> Visit:
        """Check this node: None if it matches here, a reason if not, or the children to check next."""
        reason = self.mismatch(value)
        if reason is None:
            return None
        if not isinstance(reason, str):
            raise TypeError(f"{type(self).__name__}.mismatch must return a str or None, got {type(reason).__name__}")
        if not ctx.reveal and contains_sensitive(marks):
            # The check's own words may quote the value: say only that it was rejected.
            return f"value {ctx.got(value, marks)} rejected by {self.name} check"
        return ctx.secrets.scrub(reason)

    def _passes(self, value: Any) -> bool:
        """True only if :meth:`_visit` surely returns None for ``value``, whatever its marks (a known,
        present value): a fast path for passing scalar checks. False means "run the engine"."""
        return False

    # -- machinery -------------------------------------------------------------------------------

    def _seal(self) -> None:
        # Children are sealed first (they are built first), so hashing never recurses.
        object.__setattr__(
            self, "_hash", hash((type(self), self._ident(), tuple(k._hash for k in self._kids())))
        )

    def __setattr__(self, name: str, value: Any) -> None:
        if _sealed(self):
            raise AttributeError(f"{type(self).__name__} is immutable; cannot set {name!r}")
        # A user-written check sets its attributes in __init__, before super().__init__() seals it.
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot delete {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        if hasattr(self, "__dict__"):
            return (_rebuild, (type(self), dict(vars(self))))
        return (type(self), self._args())

    def __hash__(self) -> int:
        if not _sealed(self):
            raise TypeError(_UNSEALED.format(type(self).__name__))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Check):
            return _same_structure(self, other)
        if _is_json_like(other):
            return first_failure(self, other, None, None, Ctx(NO_SECRETS, False)) is None
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        if result is NotImplemented:
            return NotImplemented
        return not result

    def __repr__(self) -> str:
        return _render(self, "_repr_parts", None)

    def __str__(self) -> str:
        """The expected value as text: ``"x"``, ``[1, 2]``, ``{"a": null, ...}``, ``/^ami-/``."""
        return _render(self, "_text_parts", MAX_TEXT_CHARS)

    # -- public API ------------------------------------------------------------------------------

    def describe(self) -> str:
        """The check's name, as used in messages.

        >>> from plancheck import knownvalue as kv
        >>> kv.StringExact("x").describe(), kv.SetPartial([]).describe()
        ('StringExact', 'SetPartial')
        """
        return self.name

    def CheckValue(
        self,
        value: Any,
        *,
        sensitive: Marks = None,
        secrets: Secrets | None = None,
        unknown: Marks = None,
        path: Path | None = None,
    ) -> None:
        """Raise :class:`~plancheck.ValueMismatchError` unless ``value`` matches this check.

        ``sensitive`` and ``unknown`` are marks trees for ``value`` as Terraform writes
        them (``after_sensitive``, ``after_unknown``): ``True`` marks a whole subtree.
        Sensitive values are still compared but never shown; an unknown value fails
        every check. ``secrets`` are scrubbed from messages too. ``path`` is where
        ``value`` sits in its document; the error's path starts with it.

        >>> from plancheck import knownvalue as kv
        >>> from tfjsonpath import New
        >>> kv.MapPartial({"pw": kv.StringExact("hunter2")}).CheckValue(
        ...     {"pw": "hunter3"}, sensitive={"pw": True}, path=New("triggers"))
        Traceback (most recent call last):
        ...
        plancheck.ValueMismatchError: triggers["pw"]: expected value (sensitive) for StringExact check, got: (sensitive)
        >>> kv.NotNull().CheckValue(None, unknown=True)
        Traceback (most recent call last):
        ...
        plancheck.ValueMismatchError: value is unknown
        """
        if secrets is None:
            secrets = NO_SECRETS
        elif not isinstance(secrets, Secrets):
            raise ArgumentError(f"CheckValue: secrets must be a plancheck Secrets, got {type(secrets).__name__}")
        if path is not None and not isinstance(path, Path):
            raise ArgumentError(f"CheckValue: path must be a tfjsonpath.Path, got {type(path).__name__}")
        if not _sealed(self):
            raise ArgumentError(_UNSEALED.format(type(self).__name__))
        if unknown is not True and self._passes(value):
            return
        ctx = Ctx(secrets, sensitive_shown())
        failure = first_failure(self, value, sensitive, unknown, ctx)
        if failure is not None:
            base = path if path is not None else Path()
            expected, actual = shown_expected_actual(failure, ctx)
            raise ValueMismatchError(base.join(*failure.steps()), failure.reason, expected=expected, actual=actual)


class ValueCheck(Check):
    """Base of the checks built from one validated argument (a string, a number, a size).

    The argument identifies the check, is its constructor argument (for pickling and
    copying) and its repr: ``Name(argument)``. A subclass validates it, then calls
    :meth:`_init_value`.

    >>> from plancheck import knownvalue as kv
    >>> kv.Bool(True), kv.Int64Exact(3) == kv.Int64Exact(3), kv.ListSizeExact(2)
    (Bool(True), True, ListSizeExact(2))
    """

    __slots__ = ("_value",)
    _value: Any

    def _init_value(self, value: Any) -> None:
        object.__setattr__(self, "_value", value)
        self._seal()

    def _ident(self) -> tuple[Hashable, ...]:
        return (self._value,)

    def _args(self) -> tuple[Any, ...]:
        return (self._value,)

    def _repr_parts(self) -> Sequence[str | Check]:
        return (f"{self.name}({self._value!r})",)


def require_check(owner: str, where: str, item: object) -> Check:
    """Return ``item`` if it is a Check, else raise an ArgumentError (a TypeError) naming the constructor and position."""
    if isinstance(item, Check) and not _sealed(item):
        raise ArgumentError(f"{owner} {where}: " + _UNSEALED.format(type(item).__name__))
    if not isinstance(item, Check):
        raise ArgumentError(
            f"{owner} {where} must be a knownvalue check, got {type(item).__name__}"
            " (wrap plain values with knownvalue.exact())"
        )
    return item


def to_decimal(value: int | float | Decimal) -> Decimal:
    """The exact decimal a JSON number stands for (a float: its shortest round-tripping decimal).

    >>> to_decimal(3), to_decimal(1.23), to_decimal(Decimal("1.230"))
    (Decimal('3'), Decimal('1.23'), Decimal('1.230'))
    """
    if isinstance(value, Decimal):
        return value
    if isinstance(value, float):
        return Decimal(repr(value))
    return Decimal(value)


def numbers_equal(a: Decimal, b: Decimal) -> bool:
    """Exact numeric equality (no rounding, any precision); NaN equals nothing.

    >>> numbers_equal(Decimal("1.0"), Decimal(1)), numbers_equal(Decimal("NaN"), Decimal("NaN"))
    (True, False)
    """
    if a.is_nan() or b.is_nan():
        return False
    # Decimal comparison is exact: it never rounds to the context precision.
    return a == b
