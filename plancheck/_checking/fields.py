"""The arguments that checks share, each validated in one place: argument sets and selectors.

A plan check and its state twin (``ExpectKnownValue`` in both, ``ExpectSensitiveValue``
in both) take the same arguments with the same checks and messages; each class here
declares one such set (slots, fields, constructor) and the checks derive from it
next to PlanCheck or StateCheck, which keep their own meaning.

A check over many resources takes ``selector`` as a :class:`~plancheck.Resources` or an address glob
string (shorthand for ``Resources(address=...)``), and ``except_`` as one of those or a list of them;
both are validated here too, with messages that name the check and the argument.
"""

from __future__ import annotations

import enum
import inspect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import KW_ONLY
from functools import partial, wraps
from typing import Any, Final, Literal, TypeVar, overload

from tfjsonpath import Path

from .._documents.select import Actions, Resources, address_pattern
from .._errors import ArgumentError
from .._frozen import FrozenValue, frozen
from .._text import closest
from .matcher import Check, require_check

__all__ = [
    "OutputFields",
    "OutputMatcherFields",
    "OutputPathFields",
    "OutputPathMatcherFields",
    "ResourcePathFields",
    "ResourcePathMatcherFields",
    "UNKNOWN_MODES",
    "check_fields",
    "checked_address",
    "checked_deposed",
    "checked_instance",
    "checked_matcher",
    "checked_output_name",
    "checked_path",
    "checked_selector",
    "checked_selectors",
    "checked_unknown_mode",
    "empty_selection",
    "guard_documents",
    "item_label",
    "require_document",
]

_D = TypeVar("_D")
_T = TypeVar("_T")
#: A guarded method's document not given by position (see _guarded).
_BY_NAME: Final = object()


def require_document(document: object, kind: type[_D], where: str, how: str) -> _D:
    """Return ``document`` if it is a ``kind``, else raise an ArgumentError (a TypeError) saying ``how`` to get one.

    >>> from plancheck import State
    >>> require_document({}, State, "assert_state", "a plancheck.State (use load_state or State.from_dict)")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: assert_state expects a plancheck.State (use load_state or State.from_dict), got dict
    """
    if not isinstance(document, kind):
        raise ArgumentError(f"{where} expects {how}, got {type(document).__name__}")
    return document


def guard_documents(
    cls: type, kind: type, how: str, *methods: str, convert: Callable[[object, str], Any] | None = None
) -> None:
    """Make each of ``methods`` that ``cls`` itself defines refuse a document that is not a ``kind`` with
    :func:`require_document`'s TypeError (``ExpectX.failures expects ...``), not the AttributeError the check
    would meet inside it.

    A family whose entry points also read their document from other shapes (a configuration from a dict) passes
    ``convert``, the function they use for it: given what is not a ``kind`` and where (``ExpectX.failures``), it
    returns the document or raises; so ``failures`` takes what the family's ``check_config`` takes.

    What a check family's base calls from ``__init_subclass__``: every check, the library's and the user's,
    is guarded where it is declared, so none is left out. A guarded method says so (``.unguarded``, the
    method as written), so the class a dataclass rebuilds with slots is not guarded twice.

    >>> class Check:
    ...     def failures(self, n):
    ...         return [] if n.real else ["zero"]
    >>> guard_documents(Check, int, "an int", "failures")
    >>> Check().failures(0)
    ['zero']
    >>> Check().failures("0")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: Check.failures expects an int, got str
    >>> class Parsed:
    ...     def failures(self, n):
    ...         return n
    >>> guard_documents(Parsed, int, "an int", "failures", convert=lambda text, where: int(text))
    >>> Parsed().failures("7")
    7
    """
    for name in methods:
        method = cls.__dict__.get(name)
        # An abstract declaration has nothing to guard; a method guarded already is met again when a dataclass
        # with slots rebuilds the class.
        if callable(method) and not getattr(method, "__isabstractmethod__", False) and not hasattr(method, "unguarded"):
            setattr(cls, name, _guarded(method, name, kind, how, convert))


def _guarded(
    method: Callable[..., _T], name: str, kind: type, how: str, convert: Callable[[object, str], Any] | None
) -> Callable[..., _T]:
    """``method``, refusing a document that is not a ``kind`` (see :func:`guard_documents`).

    It takes what the method as written takes, the signature ``help()`` shows: the document by position or by
    its name (``failures(plan=...)``), and any further argument a user's check declares.
    """
    names = list(inspect.signature(method).parameters)
    parameter = names[1] if len(names) > 1 else ""  # the document's: the one after self

    @wraps(method)
    def guarded(self: object, document: object = _BY_NAME, /, *args: Any, **kwargs: Any) -> _T:
        if document is _BY_NAME:
            if parameter not in kwargs:  # no document at all: the method's own TypeError names what is missing
                return method(self, *args, **kwargs)
            document = kwargs.pop(parameter)
        if not isinstance(document, kind):
            where = f"{type(self).__name__}.{name}"
            if convert is None:
                require_document(document, kind, where, how)
            else:
                document = convert(document, where)
        # The document alone, as the checks' runners pass it, is not unpacked: that was most of the guard's cost.
        return method(self, document, *args, **kwargs) if args or kwargs else method(self, document)

    guarded.unguarded = method  # type: ignore[attr-defined]
    return guarded


@overload
def checked_address(value: object, check: str, what: str = ..., *, optional: Literal[False] = ...) -> str: ...


@overload
def checked_address(value: object, check: str, what: str = ..., *, optional: Literal[True]) -> str | None: ...


def checked_address(value: object, check: str, what: str = "address", *, optional: bool = False) -> str | None:
    """Return ``value`` as an exact, non-empty str, or raise TypeError/ValueError naming the check; with
    ``optional``, None too (no such argument: no deposed key, no triggering resource).

    >>> checked_address("", "ExpectX", "name")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: ExpectX: name must not be empty
    >>> checked_address(None, "ExpectX", "deposed", optional=True) is None
    True
    """
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise ArgumentError(f"{check}: {what} must be a str, got {type(value).__name__}")
    if not value:
        raise ArgumentError(f"{check}: {what} must not be empty")
    return value if type(value) is str else str.__str__(value)


def checked_path(value: object, check: str) -> Path:
    """Return ``value`` if it is a tfjsonpath Path, else raise an ArgumentError (a TypeError) with a hint for strings.

    >>> checked_path("a.b", "ExpectX")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: ExpectX: path must be a tfjsonpath.Path, got str (to use text, parse it: tfjsonpath.Path.parse('a.b'))
    """
    if isinstance(value, Path):
        return value
    hint = ""
    if isinstance(value, str):
        hint = f" (to use text, parse it: tfjsonpath.Path.parse({value!r}))"
    raise ArgumentError(f"{check}: path must be a tfjsonpath.Path, got {type(value).__name__}{hint}")


def checked_matcher(value: object, check: str) -> Check:
    """Return ``value`` if it is a knownvalue check, else raise an ArgumentError (a TypeError) naming the check."""
    return require_check(f"{check}:", "matcher", value)


#: An output's name, checked as an address is: a non-empty str, named "output name" in errors.
checked_output_name: Final = partial(checked_address, what="output name")
#: A deposed key, checked as an address is, or None (the current object): the checker check_fields is given for one.
checked_deposed: Final = partial(checked_address, what="deposed", optional=True)


def checked_instance(kind: type[_T], what: str) -> Callable[[object, str], _T]:
    """A checker for :func:`check_fields`: the argument ``what`` must be a ``kind``, else a TypeError naming the check.

    >>> checked_instance(Path, "path")("a.b", "ExpectX")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: ExpectX: path must be a Path, got str

    The name of an enum's member, given as text (as a checks file gives it, or as Terraform's JSON spells an
    action), is named back as the member to pass:

    >>> from plancheck import ResourceAction
    >>> checked_instance(ResourceAction, "action")("no-op", "ExpectX")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: ExpectX: action must be a ResourceAction, got str (did you mean ResourceAction.NoOp?)
    """

    def checked(value: object, check: str) -> _T:
        if not isinstance(value, kind):
            raise ArgumentError(f"{check}: {what} must be a {kind.__name__}, got {type(value).__name__}{member_hint(kind, value)}")
        return value

    return checked


def member_hint(kind: type, value: object) -> str:
    """`` (did you mean Kind.Member?)`` when ``value`` is text naming a member of the enum ``kind`` (in any case,
    with or without ``-``/``_``), else nothing: only the member's own name is shown, never the text given.

    >>> from plancheck import ResourceAction
    >>> member_hint(ResourceAction, "create"), member_hint(ResourceAction, "delete"), member_hint(str, "create")
    (' (did you mean ResourceAction.Create?)', '', '')
    """
    if not (isinstance(value, str) and issubclass(kind, enum.Enum)):
        return ""
    wanted = _folded(value)
    for member in kind:
        if _folded(member.name) == wanted:
            return f" (did you mean {kind.__name__}.{member.name}?)"
    return ""


def _folded(name: str) -> str:
    """``name`` as :func:`member_hint` compares it: ``no-op``, ``NO_OP`` and ``NoOp`` alike."""
    return name.replace("-", "").replace("_", "").casefold()


def check_fields(value: FrozenValue, **checkers: Callable[[Any, str], Any]) -> None:
    """Set each named field of ``value`` (in its ``__post_init__``) to what its checker returns for it: how a
    check with fields of its own validates and normalises them, each error naming the check's class.

    The argument sets below, which every value check is built on, call their checkers directly: one hop
    less on the construction of every check.

    >>> @frozen
    ... class Probe(FrozenValue):
    ...     address: str
    ...     path: Path
    ...     def __post_init__(self):
    ...         check_fields(self, address=checked_address, path=checked_path)
    >>> Probe("a.b", "x")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: Probe: path must be a tfjsonpath.Path, got str (to use text, parse it: tfjsonpath.Path.parse('x'))
    """
    name = type(value).__name__
    value._set(**{field: checker(getattr(value, field), name) for field, checker in checkers.items()})


@frozen
class ResourcePathFields(FrozenValue):
    """``(address, path, *, deposed=None)``: a value inside a resource object (``deposed=``: a deposed one).

    >>> from tfjsonpath import New
    >>> class Probe(ResourcePathFields):
    ...     __slots__ = ()
    >>> Probe("a.b", New("x"), deposed="k")
    Probe('a.b', Path(MapStep('x')), deposed='k')
    """

    address: str
    path: Path
    _: KW_ONLY
    deposed: str | None = None

    def __post_init__(self) -> None:
        check = type(self).__name__
        self._set(
            address=checked_address(self.address, check),
            path=checked_path(self.path, check),
            deposed=checked_address(self.deposed, check, "deposed", optional=True),
        )


@frozen
class ResourcePathMatcherFields(FrozenValue):
    """``(address, path, matcher, *, deposed=None)``: a value inside a resource object, and what it must match.

    >>> from tfjsonpath import New
    >>> class Probe(ResourcePathMatcherFields):
    ...     __slots__ = ()
    >>> Probe("a.b", New("x"), "y")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: Probe: matcher must be a knownvalue check, got str (wrap plain values with knownvalue.exact())
    """

    address: str
    path: Path
    matcher: Check
    _: KW_ONLY
    deposed: str | None = None

    def __post_init__(self) -> None:
        check = type(self).__name__
        self._set(
            address=checked_address(self.address, check),
            path=checked_path(self.path, check),
            matcher=checked_matcher(self.matcher, check),
            deposed=checked_address(self.deposed, check, "deposed", optional=True),
        )


@frozen
class OutputFields(FrozenValue):
    """``(name)``: a root module output as a whole.

    >>> class Probe(OutputFields):
    ...     __slots__ = ()
    >>> Probe("")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: Probe: output name must not be empty
    """

    name: str

    def __post_init__(self) -> None:
        self._set(name=checked_output_name(self.name, type(self).__name__))


@frozen
class OutputPathFields(FrozenValue):
    """``(name, path)``: a value inside a root module output.

    >>> from tfjsonpath import New
    >>> class Probe(OutputPathFields):
    ...     __slots__ = ()
    >>> Probe("o", New(0))
    Probe('o', Path(SliceStep(0)))
    """

    name: str
    path: Path

    def __post_init__(self) -> None:
        check = type(self).__name__
        self._set(name=checked_output_name(self.name, check), path=checked_path(self.path, check))


@frozen
class OutputMatcherFields(FrozenValue):
    """``(name, matcher)``: a root module output as a whole, and what it must match.

    >>> from plancheck import knownvalue as kv
    >>> class Probe(OutputMatcherFields):
    ...     __slots__ = ()
    >>> Probe("o", kv.Null())
    Probe('o', Null())
    """

    name: str
    matcher: Check

    def __post_init__(self) -> None:
        check = type(self).__name__
        self._set(name=checked_output_name(self.name, check), matcher=checked_matcher(self.matcher, check))


@frozen
class OutputPathMatcherFields(FrozenValue):
    """``(name, path, matcher)``: a value inside a root module output, and what it must match.

    >>> from plancheck import knownvalue as kv
    >>> from tfjsonpath import New
    >>> class Probe(OutputPathMatcherFields):
    ...     __slots__ = ()
    >>> Probe("o", New("a"), kv.Null())
    Probe('o', Path(MapStep('a')), Null())
    """

    name: str
    path: Path
    matcher: Check

    def __post_init__(self) -> None:
        check = type(self).__name__
        self._set(
            name=checked_output_name(self.name, check),
            path=checked_path(self.path, check),
            matcher=checked_matcher(self.matcher, check),
        )


#: What ``unknown=`` may say a verdict "unknown until apply" does.
UNKNOWN_MODES: Final = ("fail", "pass", "warn")


def checked_selector(value: object, check: str, what: str = "selector") -> Resources:
    """``value`` as a Resources: itself, or ``Resources(address=value)`` for an address glob.

    >>> checked_selector("aws_s3_bucket.*", "ExpectX")
    Resources(address='aws_s3_bucket.*')
    >>> checked_selector("aws_s3_bucket.logs[", "ExpectX")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: ExpectX: selector 'aws_s3_bucket.logs[' is not a valid pattern: '[' at offset 18 is never closed
    >>> checked_selector(3, "ExpectX")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: ExpectX: selector must be a plancheck.Resources or an address glob (str), got int
    """
    if isinstance(value, Resources):
        return value
    if isinstance(value, str):
        address_pattern(value, what, owner=check)  # the check's own words for a bad pattern
        return Resources(address=value)
    raise ArgumentError(f"{check}: {what} must be a plancheck.Resources or an address glob (str), got {type(value).__name__}")


def checked_plan_selector(value: object, check: str, what: str = "selector") -> Resources | Actions:
    """:func:`checked_selector`, or an :class:`~plancheck.Actions` as itself: a plan's checks also select invocations.

    >>> checked_plan_selector(Actions("action.t.*"), "ExpectX")
    Actions('action.t.*')
    >>> checked_plan_selector(None, "ExpectX")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: ExpectX: selector must be a plancheck.Resources, a plancheck.Actions or an address glob (str), got NoneType
    """
    if isinstance(value, Actions):
        return value
    if isinstance(value, (Resources, str)):
        return checked_selector(value, check, what)
    raise ArgumentError(
        f"{check}: {what} must be a plancheck.Resources, a plancheck.Actions or an address glob (str), got {type(value).__name__}"
    )


def checked_selectors(value: object, check: str, what: str = "except_") -> tuple[Resources, ...]:
    """One selector or a list of them (Resources or address globs), as a tuple; None is no selector.

    >>> checked_selectors(["null_resource.a", "module.db.*"], "ExpectX")
    (Resources(address='null_resource.a'), Resources(address='module.db.*'))
    >>> checked_selectors(None, "ExpectX"), checked_selectors("a.b", "ExpectX")
    ((), (Resources(address='a.b'),))
    >>> checked_selectors([1], "ExpectX")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: ExpectX: except_[0] must be a plancheck.Resources or an address glob (str), got int
    """
    if value is None:
        return ()
    if isinstance(value, (Resources, str)):
        return (checked_selector(value, check, what),)
    if not isinstance(value, Iterable) or isinstance(value, (bytes, bytearray)):
        raise ArgumentError(
            f"{check}: {what} must be a plancheck.Resources, an address glob (str) or a list of them, "
            f"got {type(value).__name__}"
        )
    return tuple(dict.fromkeys(checked_selector(item, check, f"{what}[{i}]") for i, item in enumerate(value)))


def checked_unknown_mode(value: object, check: str) -> str:
    """``unknown=``: what a verdict "unknown until apply" does (``"fail"``, ``"pass"`` or ``"warn"``).

    >>> checked_unknown_mode("warn", "ExpectX")
    'warn'
    >>> checked_unknown_mode("wran", "ExpectX")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: ExpectX: unknown must be 'fail', 'pass' or 'warn', got 'wran' (did you mean 'warn'?)
    """
    if not isinstance(value, str):
        raise ArgumentError(f"{check}: unknown must be 'fail', 'pass' or 'warn' (a str), got {type(value).__name__}")
    if value not in UNKNOWN_MODES:
        hint = closest(value.lower(), UNKNOWN_MODES, n=1)
        did = f" (did you mean {hint[0]!r}?)" if hint else ""
        raise ArgumentError(f"{check}: unknown must be 'fail', 'pass' or 'warn', got {value!r}{did}")
    return value


def item_label(address: str, deposed: str | None) -> str:
    """How a message names one object: its address, and its deposed key when it is a deposed object.

    >>> item_label("a.b", None), item_label("a.b", "00000001")
    ('a.b', 'a.b (deposed "00000001")')
    """
    if deposed is None:
        return address
    return f'{address} (deposed "{deposed}")'


def empty_selection(
    selector: Resources, where: str, skipped: Sequence[str], types: Iterable[str], addresses: Iterable[str]
) -> str:
    """The failure message of a selector that selects nothing to check in ``where`` (``"plan"``, ``"state"``).

    ``skipped`` are the labels of objects it selected but could not check (no planned value);
    ``types`` and ``addresses`` are what the document holds, to suggest the closest.

    >>> empty_selection(Resources(type="aws_s3_bukcet"), "plan", [], ["aws_s3_bucket"], ["aws_s3_bucket.a"])
    'selects no resource in the plan; closest type: aws_s3_bucket (allow_empty=True on the selector accepts that)'
    >>> empty_selection(Resources(type="aws_s3_bucket", module=""), "plan", [], ["aws_s3_bucket"], ["module.m.aws_s3_bucket.a"])
    "selects no resource in the plan; 1 resource matches type 'aws_s3_bucket' but not the other fields (allow_empty=True on the selector accepts that)"
    >>> empty_selection(Resources(type="x"), "plan", ["x.a", "x.b"], ["x"], ["x.a"])
    'selects no resource with a planned value in the plan: 2 selected are deleted or forgotten: x.a, x.b (allow_empty=True on the selector accepts that)'
    """
    accept = " (allow_empty=True on the selector accepts that)"
    if skipped:
        verb = "is" if len(skipped) == 1 else "are"
        return (
            f"selects no resource with a planned value in the {where}: {len(skipped)} selected {verb} "
            f"deleted or forgotten: {', '.join(skipped)}{accept}"
        )
    hints: list[str] = []
    if selector.type is not None:
        kinds = list(types)
        type_re = selector._compiled[0]
        typed = sum(1 for kind in kinds if type_re is not None and type_re.matches(kind))
        if typed:
            # The type is there: another field left them out.
            noun = "resource matches" if typed == 1 else "resources match"
            hints.append(f"{typed} {noun} type {selector.type!r} but not the other fields")
        elif "*" not in selector.type and "?" not in selector.type:
            near = closest(selector.type, sorted(set(kinds)), n=3)
            if near:
                hints.append(f"closest type{'s' if len(near) > 1 else ''}: {', '.join(near)}")
    if selector.address is not None and "*" not in selector.address and "?" not in selector.address:
        near = closest(selector.address, list(dict.fromkeys(addresses)), n=3)
        if near:
            hints.append(f"closest address{'es' if len(near) > 1 else ''}: {', '.join(near)}")
    hint = "; " + "; ".join(hints) if hints else ""
    return f"selects no resource in the {where}{hint}{accept}"
