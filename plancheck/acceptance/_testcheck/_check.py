"""What every legacy check function shares: the callable it returns, argument checks, resource look-up."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Final, NoReturn, final

from ..._documents.state import State
from ..._frozen import public
from ..._redact import SENSITIVE, sensitive_shown
from .._errors import TestDefinitionError
from ._errors import TestCheckFuncError
from ._flatmap import FlatAttributes, FlatState, module_legacy_path
from ._gotext import go_quote

__all__ = [
    "CheckFunc",
    "Fail",
    "compile_regex",
    "instance",
    "leaf",
    "module_address",
    "require_str",
    "shown",
]

_ATOI: Final = re.compile(r"[+-]?[0-9]+")


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
    plancheck.acceptance._testcheck._check.Fail: Not found: a.b in [root]
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
