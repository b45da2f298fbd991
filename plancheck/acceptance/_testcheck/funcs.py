"""Go's legacy check functions of ``helper/resource`` (``TestCheckResourceAttr`` ...) and their composition.

Each returns a :class:`CheckFunc` (the callable every function shares, with argument checks and the
resource look-up); its failures are worded as Go's. Keys are flatmap keys (see :mod:`.flatmap`):
``tags.env``, ``rule.0.port``, ``rule.#``, ``tags.%``. ``ComposeTestCheckFunc`` and
``ComposeAggregateTestCheckFunc`` run several.

The ``TestCheckTypeSetElem*`` functions find a set (or list) element by value, ``*`` for its index:
an ``attr`` such as ``rule.*`` or ``group.*.rule.*`` names elements; each ``*`` stands for an index
(any flatmap key part, except the count keys ``#``/``%``, which Go would match too: Go's
``TestCheckTypeSetElemAttr("r", "set.*", "2")`` passes on any two-element set).

For the nested-attribute checks an element matches when every non-empty expected value is met
in that one element (an empty string, as Go's documentation says, does not constrain). Go
counts matches per last index only, so it can pass on values spread over several elements
of an outer set, or count an empty expected value in place of a missing one; here it does not.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, NoReturn, TypeVar, final

from ..._checking.matcher import search_pattern
from ..._documents.state import State
from ..._frozen import public
from ..._redact import SENSITIVE, sensitive_shown
from ..._text import exception_message
from .._errors import ComposedCheckError, TestCheckFuncError, TestDefinitionError
from .flatmap import FlatAttributes, FlatOutput, FlatState, go_quote, go_string_map, module_legacy_path

_F = TypeVar("_F", bound=Callable[..., "CheckFunc"])

_ATOI: Final = re.compile(r"[+-]?[0-9]+")


def _not_a_test(function: _F) -> _F:
    """Marks a Go check function as no test: its name starts with "Test", and pytest must not collect it
    from a test module that imports it."""
    function.__test__ = False  # type: ignore[attr-defined]
    return function


class Fail(Exception):
    """Raised inside a check body with the Go-worded message; the caller redacts and re-raises it."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


def _indexes_into_type_set(key: str) -> bool:
    """Go's heuristic: a part of ``key`` that is an integer above 100 is likely a TypeSet hash.

    >>> _indexes_into_type_set("rule.1234567.port"), _indexes_into_type_set("rule.0.port")
    (True, False)
    """
    return any(_ATOI.fullmatch(part) is not None and int(part) > 100 for part in key.split("."))


def _state_of(check: str, state: Any) -> FlatState:
    if isinstance(state, (State, FlatState)):
        return FlatState.of(state)
    raise TestDefinitionError(check, f"expected a plancheck.State to check, got {type(state).__name__}")


@public("plancheck.acceptance")
@final
class CheckFunc:
    """A check function made by ``TestCheckResourceAttr`` and its kin: call it with a :class:`plancheck.State`.

    It returns None when the check holds and raises :class:`TestCheckFuncError` (an
    ``AssertionError``) worded as Go's when it does not. The repr names the check, never a value.

    >>> check = CheckFunc("TestCheckOutput", "'ip'", lambda flat: None)
    >>> check(State.from_dict({"format_version": "1.0"})), check
    (None, TestCheckOutput('ip'))
    """

    __slots__ = ("_label", "_run", "check")
    check: str
    _label: str
    _run: Callable[[FlatState], None]

    def __init__(self, check: str, label: str, run: Callable[[FlatState], None]) -> None:
        self.check = check
        self._label = label
        self._run = run

    def __call__(self, state: State | FlatState) -> None:
        self._run(_state_of(self.check, state))

    def __repr__(self) -> str:
        return f"{self.check}({self._label})"


def leaf(
    check: str,
    label: str,
    name: str | None,
    key: str | None,
    body: Callable[[FlatState], None],
    typeset_keys: Sequence[str] = (),
) -> CheckFunc:
    """A CheckFunc that runs ``body``, turning its :class:`Fail` into a redacted TestCheckFuncError.

    ``typeset_keys``: keys Go's ``checkIfIndexesIntoTypeSet`` looks at to add its hint.

    >>> def body(flat):
    ...     raise Fail("a.b: Attribute 'x.1234' not found")
    >>> leaf("TestCheckResourceAttr", "", "a.b", "x.1234", body, ["x.1234"])(State.from_dict({"format_version": "1.0"}))
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestCheckFuncError: Error in test check: a.b: Attribute 'x.1234' not found
    Test check address "x.1234" likely indexes into TypeSet
    This is currently not possible in the SDK
    """
    hinted = [k for k in typeset_keys if _indexes_into_type_set(k)]

    def run(flat: FlatState) -> None:
        try:
            body(flat)
        except Fail as failure:
            message = failure.message
            if len(hinted) == 1 and len(typeset_keys) == 1:
                message = (
                    f"Error in test check: {message}\nTest check address {go_quote(hinted[0])} likely "
                    "indexes into TypeSet\nThis is currently not possible in the SDK"
                )
            elif hinted:
                first, second = typeset_keys[0], typeset_keys[1]
                message = (
                    f"Error in test check: {message}\nTest check address {go_quote(first)} or {go_quote(second)} "
                    "likely indexes into TypeSet\nThis is currently not possible in the SDK"
                )
            raise TestCheckFuncError(check, name, key, flat.scrub(message)) from None

    return CheckFunc(check, label, run)


def require_str(where: str, what: str, value: Any) -> str:
    """``value`` if it is a str, else a TestDefinitionError naming ``where`` and ``what``.

    >>> require_str("TestCheckResourceAttr", "value", 5)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: TestCheckResourceAttr: value: expected a str (Go's string; write "5" for a number), got int
    """
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        _definition(where, f'{what}: expected a str (Go\'s string; write "{str(value).lower()}" for a bool), got bool')
    if isinstance(value, (int, float)):
        _definition(where, f'{what}: expected a str (Go\'s string; write "{value}" for a number), got {type(value).__name__}')
    _definition(where, f"{what}: expected a str, got {type(value).__name__}")


def _definition(where: str, problem: str) -> NoReturn:
    raise TestDefinitionError(where, problem)


def compile_regex(where: str, what: str, pattern: Any) -> re.Pattern[str]:
    """A compiled regular expression (Python ``re``, searched like Go's ``MatchString``) from a str or a Pattern.

    >>> compile_regex("TestMatchOutput", "r", "^a+$").search("aa") is not None
    True
    >>> compile_regex("TestMatchOutput", "r", "(")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: TestMatchOutput: r: bad regular expression "(": missing ), unterminated subpattern at position 0
    """
    if isinstance(pattern, re.Pattern):
        if isinstance(pattern.pattern, str):
            return pattern
        _definition(where, f"{what}: expected a str pattern, got a bytes pattern")
    if not isinstance(pattern, str):
        _definition(where, f"{what}: expected a regular expression (str or re.Pattern), got {type(pattern).__name__}")
    try:
        return re.compile(pattern)
    except re.error as exc:
        _definition(where, f"{what}: bad regular expression {go_quote(pattern)}: {exc}")


def module_address(where: str, module: Any) -> str:
    """The module address a ``TestCheckModule*`` function looks in.

    As in Go, a sequence of module names (``["child", "grandchild"]``; a leading ``"root"``, as
    old suites write, is dropped); or a module address (``'module.child["a"]'``); empty: the root.

    >>> module_address("f", ["root", "child", "grandchild"]), module_address("f", 'module.c["a"]'), module_address("f", [])
    ('module.child.module.grandchild', 'module.c["a"]', '')
    """
    if isinstance(module, str):
        if module and not module.startswith("module."):
            _definition(where, f"module: expected a module address such as \"module.child\" or a list of names, got {go_quote(module)}")
        return module
    if not isinstance(module, Sequence) or isinstance(module, (bytes, bytearray)):
        _definition(where, f"module: expected a list of module names or a module address, got {type(module).__name__}")
    names = list(module)
    if names and names[0] == "root":
        names = names[1:]
    for name in names:
        if not isinstance(name, str) or not name:
            _definition(where, f"module: expected module names (non-empty str), got {name!r}")
    return "".join(f".module.{n}" for n in names)[1:]


def instance(flat: FlatState, module: str, name: str) -> FlatAttributes:
    """The flatmap of resource ``name`` in ``module``; a Go-worded :class:`Fail` when there is none.

    >>> instance(FlatState.of(State.from_dict({"format_version": "1.0"})), "", "a.b")
    Traceback (most recent call last):
    ...
    plancheck.acceptance._testcheck.funcs.Fail: Not found: a.b in [root]
    """
    if not flat.has_module(module):
        raise Fail(f"No module found at: {module}")
    attributes = flat.attributes(name, module)
    if attributes is None:
        raise Fail(f"Not found: {name} in {module_legacy_path(module)}")
    return attributes


def shown(text: str, sensitive: bool) -> str:
    """``text`` Go-quoted, or ``(sensitive)``.

    >>> shown("x", False), shown("x", True)
    ('"x"', '(sensitive)')
    """
    return SENSITIVE if sensitive and not sensitive_shown() else go_quote(text)


#: A check: called with the state, it raises an AssertionError (or returns an exception) to fail.
Check = Callable[[State], Any]


def _checked(where: str, fs: tuple[Any, ...]) -> tuple[Check, ...]:
    for i, f in enumerate(fs, 1):
        if not callable(f):
            raise TestDefinitionError(where, f"check {i}/{len(fs)}: expected a callable taking the state, got {type(f).__name__}")
    return fs


def _failure(f: Check, flat: FlatState) -> BaseException | None:
    """The failure of one check: what it raised (an AssertionError) or returned (an exception), or None."""
    try:
        # The library's checks share one flattened state; the caller's own functions get the State.
        result = f(flat) if isinstance(f, CheckFunc) else f(flat.state)
    except AssertionError as exc:
        return exc
    return result if isinstance(result, BaseException) else None


def _text(error: BaseException, flat: FlatState) -> str:
    # A caller's own check may have put a secret in its message.
    return flat.scrub(str(error) or type(error).__name__)


@public("plancheck.acceptance")
def ComposeTestCheckFunc(*fs: Check) -> CheckFunc:
    """Go's ``ComposeTestCheckFunc``: run the checks in order, stop at the first failure.

    The failure reads ``Check N/M error: ...``. A check fails by raising an ``AssertionError``
    (or returning an exception, as a Go check returns an error); any other exception propagates.

    >>> from plancheck import State
    >>> def fails(state):
    ...     raise AssertionError("boom")
    >>> ComposeTestCheckFunc(lambda state: None, fails, fails)(State.from_dict({"format_version": "1.0"}))
    Traceback (most recent call last):
    ...
    plancheck.acceptance.ComposedCheckError: Check 2/3 error: boom
    """
    checks = _checked("ComposeTestCheckFunc", fs)

    def run(flat: FlatState) -> None:
        for i, f in enumerate(checks, 1):
            error = _failure(f, flat)
            if error is not None:
                raise ComposedCheckError(len(checks), [(i, _text(error, flat))], [error]) from error

    return CheckFunc("ComposeTestCheckFunc", f"<{len(checks)} checks>", run)


@public("plancheck.acceptance")
def ComposeAggregateTestCheckFunc(*fs: Check) -> CheckFunc:
    """Go's ``ComposeAggregateTestCheckFunc``: run every check, report every failure, one per line.

    >>> from plancheck import State
    >>> def fails(state):
    ...     raise AssertionError("boom")
    >>> ComposeAggregateTestCheckFunc(fails, lambda state: None, fails)(State.from_dict({"format_version": "1.0"}))
    Traceback (most recent call last):
    ...
    plancheck.acceptance.ComposedCheckError: Check 1/3 error: boom
    Check 3/3 error: boom
    """
    checks = _checked("ComposeAggregateTestCheckFunc", fs)

    def run(flat: FlatState) -> None:
        failures: list[tuple[int, str]] = []
        errors: list[BaseException] = []
        for i, f in enumerate(checks, 1):
            error = _failure(f, flat)
            if error is not None:
                failures.append((i, _text(error, flat)))
                errors.append(error)
        if failures:
            raise ComposedCheckError(len(checks), failures, errors)

    return CheckFunc("ComposeAggregateTestCheckFunc", f"<{len(checks)} checks>", run)


#: A value check for :func:`TestCheckResourceAttrWith`: None (or True) passes; raising, or
#: returning an exception or False, fails.
CheckValueFunc = Callable[[str], object]


def _label(*parts: Any) -> str:
    return ", ".join(repr(p) for p in parts)


def _count_key(key: str) -> bool:
    return key.endswith((".#", ".%"))


def _container_hint(attrs: FlatAttributes, name: str, key: str) -> str | None:
    if key + ".#" in attrs:
        return (
            f"{name}: list or set attribute '{key}' must be checked by element count key ({key}.#) or element "
            f"value keys (e.g. {key}.0). Set element value checks should use TestCheckTypeSet functions instead."
        )
    if key + ".%" in attrs:
        return (
            f"{name}: map attribute '{key}' must be checked by element count key ({key}.%) or element value "
            f"keys (e.g. {key}.examplekey)."
        )
    return None


# -- the checks on one flatmap --------------------------------------------------------------


def _attr_set(attrs: FlatAttributes, name: str, key: str) -> None:
    if attrs.get(key, "") != "":
        return
    raise Fail(_container_hint(attrs, name, key) or f"{name}: Attribute '{key}' expected to be set")


def _attr(attrs: FlatAttributes, name: str, key: str, value: str) -> None:
    got = attrs.get(key)
    if got is None:
        # Empty containers may be left out of the state: an absent count reads as zero.
        if value == "0" and _count_key(key):
            return
        raise Fail(_container_hint(attrs, name, key) or f"{name}: Attribute '{key}' not found")
    if got != value:
        secret = attrs.sensitive(key)
        raise Fail(f"{name}: Attribute '{key}' expected {shown(value, secret)}, got {shown(got, secret)}")


def _no_attr(attrs: FlatAttributes, name: str, key: str) -> None:
    got = attrs.get(key)
    if got == "0" and _count_key(key):
        return
    if got is not None:
        raise Fail(f"{name}: Attribute '{key}' found when not expected")
    hint = _container_hint(attrs, name, key)
    if hint is not None:
        raise Fail(hint)


def _match(attrs: FlatAttributes, name: str, key: str, regex: re.Pattern[str]) -> None:
    got = attrs.get(key, "")
    secret = attrs.sensitive(key)
    if not search_pattern(regex, got, f"{name}: Attribute '{key}'", secret):
        raise Fail(f"{name}: Attribute '{key}' didn't match {shown(regex.pattern, secret)}, got {shown(got, secret)}")


def _pair(first: FlatAttributes, name1: str, key1: str, second: FlatAttributes, name2: str, key2: str) -> None:
    v1, v2 = first.get(key1), second.get(key2)
    ok1, ok2 = v1 is not None, v2 is not None
    # Go: container counts of 0 are not reliably kept by helper/schema, so unset and "0" are equal.
    if len(key1) > 2 and len(key2) > 2 and key1[-2:] == key2[-2:] and _count_key(key1):
        ok1 = ok1 and v1 not in ("0", "")
        ok2 = ok2 and v2 not in ("0", "")
    if ok1 != ok2:
        if not ok1:
            got2 = shown(v2 or "", second.sensitive(key2))
            raise Fail(f"{name1}: Attribute {go_quote(key1)} not set, but {go_quote(key2)} is set in {name2} as {got2}")
        got1 = shown(v1 or "", first.sensitive(key1))
        raise Fail(f"{name1}: Attribute {go_quote(key1)} is {got1}, but {go_quote(key2)} is not set in {name2}")
    if not ok1:
        return
    if v1 != v2:
        secret = first.sensitive(key1) or second.sensitive(key2)
        raise Fail(f"{name1}: Attribute '{key1}' expected {shown(v2 or '', secret)}, got {shown(v1 or '', secret)}")


def _with(attrs: FlatAttributes, name: str, key: str, func: CheckValueFunc) -> None:
    _attr_set(attrs, name, key)
    value = attrs[key]
    try:
        result = func(value)
    except Exception as exc:  # the callback's error is the check's failure, as Go's returned error is
        problem = exception_message(exc) or type(exc).__name__
    else:
        if result is None or result is True:
            return
        if isinstance(result, BaseException):
            problem = exception_message(result) or type(result).__name__
        elif result is False:
            problem = "check function returned False"
        else:
            problem = f"check function returned a {type(result).__name__}, expected None or an exception"
    if attrs.sensitive(key) and not sensitive_shown():
        problem = problem.replace(value, SENSITIVE) if value else problem
    raise Fail(f"{name}: Attribute {go_quote(key)} value: {problem}")


# -- the public constructors ------------------------------------------------------------------


def _named(where: str, name: Any, key: Any) -> tuple[str, str]:
    """``name`` and ``key`` checked, in that order: a call passes them on before the argument it checks next
    (the value, the regex, the pointer), so a bad name is named first, as Go's signature lists them."""
    return require_str(where, "name", name), require_str(where, "key", key)


def _attr_check(where: str, module: str | None, name: Any, key: Any, test: Callable[..., None], *args: Any) -> CheckFunc:
    """Check ``where``: ``test(attributes, name, key, *args)`` on resource ``name``'s attributes (``key`` the one
    looked at) in ``module``; None is the root module, which the label leaves out."""
    name, key = require_str(where, "name", name), require_str(where, "key", key)
    label = _label(name, key) if module is None else _label(module, name, key)

    def run(flat: FlatState) -> None:
        test(instance(flat, module or "", name), name, key, *args)

    return leaf(where, label, name, key, run, [key])


def _read_attr(attrs: FlatAttributes, name: str, key: str, read: Callable[[], str]) -> None:
    _attr(attrs, name, key, read())


@public("plancheck.acceptance")
@_not_a_test
def TestCheckResourceAttr(name: str, key: str, value: str) -> CheckFunc:
    """Go's ``TestCheckResourceAttr``: the resource's flatmap has ``value`` at ``key``.

    ``name`` is the resource's name in the root module (``aws_instance.web``,
    ``aws_instance.web.0`` or ``aws_instance.web[0]``, ``data.aws_ami.x``). A count key
    (``.#``, ``.%``) checked for ``"0"`` also passes when absent.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "null_resource.a", "values": {"id": "7", "tags": {"env": "dev"}}}]}}})
    >>> TestCheckResourceAttr("null_resource.a", "tags.env", "dev")(state)
    >>> TestCheckResourceAttr("null_resource.a", "list.#", "0")(state)
    >>> TestCheckResourceAttr("null_resource.a", "id", "8")(state)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestCheckFuncError: null_resource.a: Attribute 'id' expected "8", got "7"
    """
    where = "TestCheckResourceAttr"
    return _attr_check(where, None, *_named(where, name, key), _attr, require_str(where, "value", value))


@public("plancheck.acceptance")
@_not_a_test
def TestCheckModuleResourceAttr(mp: Any, name: str, key: str, value: str) -> CheckFunc:
    """Go's ``TestCheckModuleResourceAttr``: :func:`TestCheckResourceAttr` in module ``mp``.

    ``mp`` is a list of module names (``["child"]``) or a module address (``"module.child"``).

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"child_modules": [
    ...     {"address": "module.c", "resources": [{"address": "module.c.null_resource.a", "values": {"id": "7"}}]}]}}})
    >>> TestCheckModuleResourceAttr(["c"], "null_resource.a", "id", "7")(state)
    >>> TestCheckModuleResourceAttr(["d"], "null_resource.a", "id", "7")(state)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestCheckFuncError: No module found at: module.d
    """
    where = "TestCheckModuleResourceAttr"
    module = module_address(where, mp)
    return _attr_check(where, module, *_named(where, name, key), _attr, require_str(where, "value", value))


@public("plancheck.acceptance")
@_not_a_test
def TestCheckResourceAttrSet(name: str, key: str) -> CheckFunc:
    """Go's ``TestCheckResourceAttrSet``: the flatmap has a non-empty value at ``key``.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "null_resource.a", "values": {"id": "7", "l": ["x"]}}]}}})
    >>> TestCheckResourceAttrSet("null_resource.a", "id")(state)
    >>> TestCheckResourceAttrSet("null_resource.a", "l")(state)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestCheckFuncError: null_resource.a: list or set attribute 'l' must be checked by element count key (l.#) or element value keys (e.g. l.0). Set element value checks should use TestCheckTypeSet functions instead.
    """
    return _attr_check("TestCheckResourceAttrSet", None, name, key, _attr_set)


@public("plancheck.acceptance")
@_not_a_test
def TestCheckModuleResourceAttrSet(mp: Any, name: str, key: str) -> CheckFunc:
    """Go's ``TestCheckModuleResourceAttrSet``: :func:`TestCheckResourceAttrSet` in module ``mp``.

    >>> from plancheck import State
    >>> TestCheckModuleResourceAttrSet("module.c", "null_resource.a", "id")(State.from_dict({"format_version": "1.0"}))
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestCheckFuncError: No module found at: module.c
    """
    where = "TestCheckModuleResourceAttrSet"
    return _attr_check(where, module_address(where, mp), name, key, _attr_set)


@public("plancheck.acceptance")
@_not_a_test
def TestCheckNoResourceAttr(name: str, key: str) -> CheckFunc:
    """Go's ``TestCheckNoResourceAttr``: the flatmap has no value at ``key`` (a count of ``"0"`` counts as none).

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "null_resource.a", "values": {"id": "7", "gone": None, "l": []}}]}}})
    >>> TestCheckNoResourceAttr("null_resource.a", "gone")(state)
    >>> TestCheckNoResourceAttr("null_resource.a", "l.#")(state)
    >>> TestCheckNoResourceAttr("null_resource.a", "id")(state)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestCheckFuncError: null_resource.a: Attribute 'id' found when not expected
    """
    return _attr_check("TestCheckNoResourceAttr", None, name, key, _no_attr)


@public("plancheck.acceptance")
@_not_a_test
def TestCheckModuleNoResourceAttr(mp: Any, name: str, key: str) -> CheckFunc:
    """Go's ``TestCheckModuleNoResourceAttr``: :func:`TestCheckNoResourceAttr` in module ``mp``.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"child_modules": [
    ...     {"address": "module.c", "resources": [{"address": "module.c.null_resource.a", "values": {"id": "7"}}]}]}}})
    >>> TestCheckModuleNoResourceAttr(["c"], "null_resource.a", "name")(state)
    """
    where = "TestCheckModuleNoResourceAttr"
    return _attr_check(where, module_address(where, mp), name, key, _no_attr)


@public("plancheck.acceptance")
@_not_a_test
def TestMatchResourceAttr(name: str, key: str, r: str | re.Pattern[str]) -> CheckFunc:
    """Go's ``TestMatchResourceAttr``: the value at ``key`` (``""`` when absent) matches ``r`` anywhere.

    ``r`` is a Python regular expression (str or compiled), searched as Go's ``MatchString`` does.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "null_resource.a", "values": {"id": "i-0abc"}}]}}})
    >>> TestMatchResourceAttr("null_resource.a", "id", r"^i-[0-9a-f]+$")(state)
    >>> TestMatchResourceAttr("null_resource.a", "id", "^ami-")(state)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestCheckFuncError: null_resource.a: Attribute 'id' didn't match "^ami-", got "i-0abc"
    """
    where = "TestMatchResourceAttr"
    return _attr_check(where, None, *_named(where, name, key), _match, compile_regex(where, "r", r))


@public("plancheck.acceptance")
@_not_a_test
def TestModuleMatchResourceAttr(mp: Any, name: str, key: str, r: str | re.Pattern[str]) -> CheckFunc:
    """Go's ``TestModuleMatchResourceAttr``: :func:`TestMatchResourceAttr` in module ``mp``.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"child_modules": [
    ...     {"address": "module.c", "resources": [{"address": "module.c.null_resource.a", "values": {"id": "7"}}]}]}}})
    >>> TestModuleMatchResourceAttr(["c"], "null_resource.a", "id", "^[0-9]$")(state)
    """
    where = "TestModuleMatchResourceAttr"
    module = module_address(where, mp)
    return _attr_check(where, module, *_named(where, name, key), _match, compile_regex(where, "r", r))


def _pointer(where: str, value: Any) -> Callable[[], str]:
    if not callable(value):
        raise TestDefinitionError(where, f"value: expected a callable returning the expected str (Go's *string), got {type(value).__name__}")

    def read() -> str:
        current = value()
        if not isinstance(current, str):
            raise TestDefinitionError(where, f"value: the callable returned {type(current).__name__}, expected a str")
        return current

    return read


@public("plancheck.acceptance")
@_not_a_test
def TestCheckResourceAttrPtr(name: str, key: str, value: Callable[[], str]) -> CheckFunc:
    """Go's ``TestCheckResourceAttrPtr``: :func:`TestCheckResourceAttr` with the expected value read when the check runs.

    Go passes a ``*string``; here ``value`` is a callable of no arguments that returns the str.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "null_resource.a", "values": {"id": "7"}}]}}})
    >>> seen = {}
    >>> check = TestCheckResourceAttrPtr("null_resource.a", "id", lambda: seen["id"])
    >>> seen["id"] = "7"
    >>> check(state)
    """
    where = "TestCheckResourceAttrPtr"
    return _attr_check(where, None, *_named(where, name, key), _read_attr, _pointer(where, value))


@public("plancheck.acceptance")
@_not_a_test
def TestCheckModuleResourceAttrPtr(mp: Any, name: str, key: str, value: Callable[[], str]) -> CheckFunc:
    """Go's ``TestCheckModuleResourceAttrPtr``: :func:`TestCheckResourceAttrPtr` in module ``mp``.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"child_modules": [
    ...     {"address": "module.c", "resources": [{"address": "module.c.null_resource.a", "values": {"id": "7"}}]}]}}})
    >>> TestCheckModuleResourceAttrPtr(["c"], "null_resource.a", "id", lambda: "7")(state)
    """
    where = "TestCheckModuleResourceAttrPtr"
    module = module_address(where, mp)
    return _attr_check(where, module, *_named(where, name, key), _read_attr, _pointer(where, value))


@public("plancheck.acceptance")
@_not_a_test
def TestCheckResourceAttrWith(name: str, key: str, check_value_func: CheckValueFunc) -> CheckFunc:
    """Go's ``TestCheckResourceAttrWith``: the value at ``key`` is set and ``check_value_func(value)`` accepts it.

    The function fails the check by raising an exception, or by returning one (or False), as
    Go's returns an error.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "null_resource.a", "values": {"port": 8080}}]}}})
    >>> def low_port(value):
    ...     if int(value) >= 1024:
    ...         raise ValueError(f"port {value} is not below 1024")
    >>> TestCheckResourceAttrWith("null_resource.a", "port", low_port)(state)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestCheckFuncError: null_resource.a: Attribute "port" value: port 8080 is not below 1024
    """
    where = "TestCheckResourceAttrWith"
    name, key = _named(where, name, key)
    if not callable(check_value_func):
        raise TestDefinitionError(where, f"check_value_func: expected a callable, got {type(check_value_func).__name__}")
    return _attr_check(where, None, name, key, _with, check_value_func)


def _self_pair(where: str, module1: str, name1: str, key1: str, module2: str, name2: str, key2: str) -> None:
    if module1 == module2 and name1 == name2 and key1 == key2:
        raise TestDefinitionError(where, f"comparing self: resource {name1} attribute {key1}")


@public("plancheck.acceptance")
@_not_a_test
def TestCheckResourceAttrPair(name_first: str, key_first: str, name_second: str, key_second: str) -> CheckFunc:
    """Go's ``TestCheckResourceAttrPair``: two resources' flatmaps hold the same value at the two keys.

    Both absent passes; for two count keys of the same kind, ``"0"`` and absent are equal.
    Comparing an attribute with itself is a :class:`TestDefinitionError` when built.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "null_resource.a", "values": {"id": "7"}},
    ...     {"address": "null_resource.b", "values": {"ref": "8", "l": []}}]}}})
    >>> TestCheckResourceAttrPair("null_resource.a", "l.#", "null_resource.b", "l.#")(state)
    >>> TestCheckResourceAttrPair("null_resource.a", "id", "null_resource.b", "ref")(state)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestCheckFuncError: null_resource.a: Attribute 'id' expected "8", got "7"
    """
    where = "TestCheckResourceAttrPair"
    return _pair_check(where, "", name_first, key_first, "", name_second, key_second)


@public("plancheck.acceptance")
@_not_a_test
def TestCheckModuleResourceAttrPair(
    mp_first: Any, name_first: str, key_first: str, mp_second: Any, name_second: str, key_second: str
) -> CheckFunc:
    """Go's ``TestCheckModuleResourceAttrPair``: :func:`TestCheckResourceAttrPair` across modules.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {
    ...     "resources": [{"address": "null_resource.a", "values": {"id": "7"}}], "child_modules": [
    ...     {"address": "module.c", "resources": [{"address": "module.c.null_resource.a", "values": {"id": "7"}}]}]}}})
    >>> TestCheckModuleResourceAttrPair([], "null_resource.a", "id", ["c"], "null_resource.a", "id")(state)
    """
    where = "TestCheckModuleResourceAttrPair"
    module1, module2 = module_address(where, mp_first), module_address(where, mp_second)
    return _pair_check(where, module1, name_first, key_first, module2, name_second, key_second)


def _pair_check(where: str, module1: str, name1: Any, key1: Any, module2: str, name2: Any, key2: Any) -> CheckFunc:
    name1, key1 = require_str(where, "name_first", name1), require_str(where, "key_first", key1)
    name2, key2 = require_str(where, "name_second", name2), require_str(where, "key_second", key2)
    _self_pair(where, module1, name1, key1, module2, name2, key2)

    def run(flat: FlatState) -> None:
        first = instance(flat, module1, name1)
        second = instance(flat, module2, name2)
        _pair(first, name1, key1, second, name2, key2)

    parts = (module1, name1, key1, module2, name2, key2) if module1 or module2 else (name1, key1, name2, key2)
    return leaf(where, _label(*parts), name1, key1, run, [key1, key2])


def _output(flat: FlatState, name: str) -> FlatOutput:
    output = flat.outputs.get(name)
    if output is None:
        raise Fail(f"Not found: {name}")
    return output


@public("plancheck.acceptance")
@_not_a_test
def TestCheckOutput(name: str, value: str) -> CheckFunc:
    """Go's ``TestCheckOutput``: the root module output ``name`` is the string ``value``.

    As in Go's state shim, a bool or number output is compared as its text (``"true"``, ``"1.5"``);
    a list or map output never equals a string.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"outputs": {
    ...     "n": {"value": 3, "type": "number"}, "pw": {"value": "hunter2", "sensitive": True, "type": "string"}}}})
    >>> TestCheckOutput("n", "3")(state)
    >>> TestCheckOutput("pw", "letmein")(state)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestCheckFuncError: Output 'pw': expected (sensitive), got &terraform.OutputState{Sensitive:true, Type:"string", Value:(sensitive)}
    """
    where = "TestCheckOutput"
    name, value = require_str(where, "name", name), require_str(where, "value", value)

    def run(flat: FlatState) -> None:
        output = _output(flat, name)
        if output.value != value:  # a list or map output never equals a string
            raise Fail(f"Output '{name}': expected {shown(value, output.sensitive)}, got {output.go_repr()}")

    return leaf(where, _label(name), name, None, run)


@public("plancheck.acceptance")
@_not_a_test
def TestMatchOutput(name: str, r: str | re.Pattern[str]) -> CheckFunc:
    """Go's ``TestMatchOutput``: the root module output ``name`` is a string that ``r`` matches anywhere.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"outputs": {"ip": {"value": "10.0.0.1"}}}})
    >>> TestMatchOutput("ip", r"^10\\.")(state)
    >>> TestMatchOutput("ip", r"^192\\.")(state)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestCheckFuncError: Output 'ip': &terraform.OutputState{Sensitive:false, Type:"string", Value:"10.0.0.1"} didn't match "^192\\\\."
    """
    where = "TestMatchOutput"
    name = require_str(where, "name", name)
    regex = compile_regex(where, "r", r)

    def run(flat: FlatState) -> None:
        output = _output(flat, name)
        if not isinstance(output.value, str):
            raise Fail(f"unexpected type {output.go_type()} for resource value")
        if not search_pattern(regex, output.value, f"Output '{name}'", output.sensitive):
            raise Fail(f"Output '{name}': {output.go_repr()} didn't match {shown(regex.pattern, output.sensitive)}")

    return leaf(where, _label(name), name, None, run)


_SENTINEL: Final = "*"
_COUNTS: Final = frozenset({"#", "%"})


def _part_matches(pattern: str, part: str) -> bool:
    return pattern == part or (pattern == _SENTINEL and part not in _COUNTS)


def _prefix_matches(attr_parts: list[str], key_parts: list[str]) -> bool:
    return all(_part_matches(p, k) for p, k in zip(attr_parts, key_parts, strict=False))


def _ends_with_sentinel(where: str, attr: str) -> list[str]:
    parts = attr.split(".")
    if parts[-1] != _SENTINEL:
        raise TestDefinitionError(where, f"{go_quote(attr)} does not end with the special value {go_quote(_SENTINEL)}")
    return parts


def _under_pattern_sensitive(attrs: FlatAttributes, attr_parts: list[str]) -> bool:
    n = len(attr_parts)
    return any(
        attrs.sensitive(key) for key in attrs if len(parts := key.split(".")) >= n and _prefix_matches(attr_parts, parts)
    )


def _has_element(attrs: FlatAttributes, attr_parts: list[str], value: str) -> bool:
    """Whether some element named by ``attr_parts`` (``*`` for an index) holds ``value``."""
    for key, got in attrs.items():
        if got == value:
            parts = key.split(".")
            if len(parts) == len(attr_parts) and _prefix_matches(attr_parts, parts):
                return True
    return False


def _elem(attrs: FlatAttributes, attr: str, value: str) -> None:
    attr_parts = attr.split(".")
    if _has_element(attrs, attr_parts, value):
        return
    secret = _under_pattern_sensitive(attrs, attr_parts)
    raise Fail(f"no TypeSet element {go_quote(attr)}, with value {shown(value, secret)} in state: {attrs.go_repr()}")


@public("plancheck.acceptance")
@_not_a_test
def TestCheckTypeSetElemAttr(name: str, attr: str, value: str) -> CheckFunc:
    """Go's ``TestCheckTypeSetElemAttr``: some element of the set at ``attr`` (ending in ``*``) is ``value``.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "null_resource.a", "values": {"ports": [80, 443]}}]}}})
    >>> TestCheckTypeSetElemAttr("null_resource.a", "ports.*", "443")(state)
    >>> TestCheckTypeSetElemAttr("null_resource.a", "ports.*", "2")(state)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestCheckFuncError: "null_resource.a" error: no TypeSet element "ports.*", with value "2" in state: map[string]string{"%":"1", "ports.#":"2", "ports.0":"80", "ports.1":"443"}
    """
    where = "TestCheckTypeSetElemAttr"
    name, attr, value = require_str(where, "name", name), require_str(where, "attr", attr), require_str(where, "value", value)
    _ends_with_sentinel(where, attr)

    def run(flat: FlatState) -> None:
        attrs = instance(flat, "", name)
        try:
            _elem(attrs, attr, value)
        except Fail as failure:
            raise Fail(f"{go_quote(name)} error: {failure.message}") from None

    return leaf(where, f"{name!r}, {attr!r}", name, attr, run)


@public("plancheck.acceptance")
@_not_a_test
def TestCheckTypeSetElemAttrPair(name_first: str, key_first: str, name_second: str, key_second: str) -> CheckFunc:
    """Go's ``TestCheckTypeSetElemAttrPair``: some element at ``key_first`` (``*`` for indexes) equals the second value.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "null_resource.a", "values": {"ids": ["x", "y"]}},
    ...     {"address": "null_resource.b", "values": {"id": "y"}}]}}})
    >>> TestCheckTypeSetElemAttrPair("null_resource.a", "ids.*", "null_resource.b", "id")(state)
    >>> TestCheckTypeSetElemAttrPair("null_resource.a", "ids.*", "null_resource.b", "name")(state)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestCheckFuncError: null_resource.b: Attribute "name" not set, cannot be checked against TypeSet
    """
    where = "TestCheckTypeSetElemAttrPair"
    name1, key1 = require_str(where, "name_first", name_first), require_str(where, "key_first", key_first)
    name2, key2 = require_str(where, "name_second", name_second), require_str(where, "key_second", key_second)

    def run(flat: FlatState) -> None:
        first = instance(flat, "", name1)
        second = instance(flat, "", name2)
        value = second.get(key2)
        if value is None:
            raise Fail(f"{name2}: Attribute {go_quote(key2)} not set, cannot be checked against TypeSet")
        attr_parts = key1.split(".")
        if _has_element(first, attr_parts, value):
            return
        secret = second.sensitive(key2) or _under_pattern_sensitive(first, attr_parts)
        raise Fail(f"no TypeSet element {go_quote(key1)}, with value {shown(value, secret)} in state: {first.go_repr()}")

    return leaf(where, f"{name1!r}, {key1!r}, {name2!r}, {key2!r}", name1, key1, run)


def _find_element(attrs: FlatAttributes, attr_parts: list[str], test: Mapping[str, Callable[[str], bool]]) -> bool:
    """Whether one element under ``attr_parts`` passes every test of ``test`` (nested key -> test of its value)."""
    n = len(attr_parts)
    passed: dict[tuple[str, ...], set[str]] = {}
    for key, value in attrs.items():
        parts = key.split(".")
        # As Go: a nested key has at least three parts and lies below the pattern.
        if len(parts) < 3 or len(parts) <= n - 1 or not _prefix_matches(attr_parts, parts[:n]):
            continue
        nested = ".".join(parts[n:])
        check = test.get(nested)
        if check is not None and check(value):
            element = tuple(parts[:n])
            found = passed.setdefault(element, set())
            found.add(nested)
            if len(found) == len(test):
                return True
    return False


def _nested_check(
    where: str, name: Any, attr: Any, tests: dict[str, Callable[[str], bool]], describe: Callable[[FlatAttributes, bool], str]
) -> CheckFunc:
    parts = _ends_with_sentinel(where, attr)

    def run(flat: FlatState) -> None:
        attrs = instance(flat, "", name)
        if not _find_element(attrs, parts, tests):
            raise Fail(describe(attrs, _under_pattern_sensitive(attrs, parts)))

    return leaf(where, f"{name!r}, {attr!r}", name, attr, run)


@public("plancheck.acceptance")
@_not_a_test
def TestCheckTypeSetElemNestedAttrs(name: str, attr: str, values: Mapping[str, str]) -> CheckFunc:
    """Go's ``TestCheckTypeSetElemNestedAttrs``: one element at ``attr`` (ending in ``*``) has all of ``values``.

    ``values`` maps nested flatmap keys to expected values; an empty value does not constrain.
    At least one value must be non-empty.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "null_resource.a", "values": {"rule": [{"port": 80, "proto": "tcp"}, {"port": 53, "proto": "udp"}]}}]}}})
    >>> TestCheckTypeSetElemNestedAttrs("null_resource.a", "rule.*", {"port": "53", "proto": "udp"})(state)
    >>> TestCheckTypeSetElemNestedAttrs("null_resource.a", "rule.*", {"port": "53", "proto": "tcp"})(state)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestCheckFuncError: "null_resource.a" no TypeSet element "rule.*", with nested attrs map[string]string{"port":"53", "proto":"tcp"} in state: map[string]string{"%":"1", "rule.#":"2", "rule.0.%":"2", "rule.0.port":"80", "rule.0.proto":"tcp", "rule.1.%":"2", "rule.1.port":"53", "rule.1.proto":"udp"}
    """
    where = "TestCheckTypeSetElemNestedAttrs"
    name, attr = require_str(where, "name", name), require_str(where, "attr", attr)
    if not isinstance(values, Mapping):
        raise TestDefinitionError(where, f"values: expected a mapping of str to str, got {type(values).__name__}")
    expected = {require_str(where, "values key", k): require_str(where, f"values[{k!r}]", v) for k, v in values.items()}
    tests: dict[str, Callable[[str], bool]] = {k: v.__eq__ for k, v in expected.items() if v != ""}
    if not tests:
        raise TestDefinitionError(where, f"{go_string_map(expected)} has no non-empty values")

    def describe(attrs: FlatAttributes, secret: bool) -> str:
        hidden = {k: SENSITIVE for k in expected} if secret and not sensitive_shown() else None
        wanted = go_string_map(expected, hidden)
        return f"{go_quote(name)} no TypeSet element {go_quote(attr)}, with nested attrs {wanted} in state: {attrs.go_repr()}"

    return _nested_check(where, name, attr, tests, describe)


@public("plancheck.acceptance")
@_not_a_test
def TestMatchTypeSetElemNestedAttrs(name: str, attr: str, values: Mapping[str, str | re.Pattern[str] | None]) -> CheckFunc:
    """Go's ``TestMatchTypeSetElemNestedAttrs``: one element at ``attr`` has nested values matching ``values``.

    ``values`` maps nested flatmap keys to regular expressions (searched anywhere); None does
    not constrain. At least one must be given.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "null_resource.a", "values": {"rule": [{"cidr": "10.0.0.0/8"}]}}]}}})
    >>> TestMatchTypeSetElemNestedAttrs("null_resource.a", "rule.*", {"cidr": r"^10\\."})(state)
    >>> TestMatchTypeSetElemNestedAttrs("null_resource.a", "rule.*", {"cidr": r"^192\\."})(state)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestCheckFuncError: "null_resource.a" no TypeSet element "rule.*", with the regex provided, match in state: map[string]string{"%":"1", "rule.#":"1", "rule.0.%":"1", "rule.0.cidr":"10.0.0.0/8"}
    """
    where = "TestMatchTypeSetElemNestedAttrs"
    name, attr = require_str(where, "name", name), require_str(where, "attr", attr)
    if not isinstance(values, Mapping):
        raise TestDefinitionError(where, f"values: expected a mapping of str to regular expressions, got {type(values).__name__}")
    tests: dict[str, Callable[[str], bool]] = {}
    for key, pattern in values.items():
        require_str(where, "values key", key)
        if pattern is not None:
            regex = compile_regex(where, f"values[{key!r}]", pattern)
            tests[key] = lambda text, regex=regex, key=key: search_pattern(regex, text, f"{where}: values[{key!r}]")  # type: ignore[misc]
    if not tests:
        raise TestDefinitionError(where, "values has no non-empty values")

    def describe(attrs: FlatAttributes, secret: bool) -> str:
        return f"{go_quote(name)} no TypeSet element {go_quote(attr)}, with the regex provided, match in state: {attrs.go_repr()}"

    return _nested_check(where, name, attr, tests, describe)
