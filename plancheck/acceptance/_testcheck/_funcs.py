"""The attribute and output check functions of Go's ``helper/resource`` (``TestCheckResourceAttr`` ...).

Each returns a :class:`CheckFunc`; its failures are worded as Go's. Keys are flatmap keys
(see :mod:`._flatmap`): ``tags.env``, ``rule.0.port``, ``rule.#``, ``tags.%``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..._frozen import public
from ..._redact import SENSITIVE, sensitive_shown
from ..._text import exception_message
from .._errors import TestDefinitionError
from ._check import CheckFunc, Fail, compile_regex, instance, leaf, module_address, require_str, shown
from ._flatmap import FlatAttributes, FlatOutput, FlatState
from ._gotext import go_quote

__all__ = [
    "TestCheckModuleNoResourceAttr",
    "TestCheckModuleResourceAttr",
    "TestCheckModuleResourceAttrPair",
    "TestCheckModuleResourceAttrPtr",
    "TestCheckModuleResourceAttrSet",
    "TestCheckNoResourceAttr",
    "TestCheckOutput",
    "TestCheckResourceAttr",
    "TestCheckResourceAttrPair",
    "TestCheckResourceAttrPtr",
    "TestCheckResourceAttrSet",
    "TestCheckResourceAttrWith",
    "TestMatchOutput",
    "TestMatchResourceAttr",
    "TestModuleMatchResourceAttr",
]

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
    if regex.search(got) is None:
        secret = attrs.sensitive(key)
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


def _root_check(check: str, label: str, name: str, key: str, body: Callable[[FlatAttributes], None]) -> CheckFunc:
    def run(flat: FlatState) -> None:
        body(instance(flat, "", name))

    return leaf(check, label, name, key, run, [key])


def _module_check(
    check: str, label: str, module: str, name: str, key: str, body: Callable[[FlatAttributes], None]
) -> CheckFunc:
    def run(flat: FlatState) -> None:
        body(instance(flat, module, name))

    return leaf(check, label, name, key, run, [key])


@public("plancheck.acceptance")
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
    name, key, value = require_str(where, "name", name), require_str(where, "key", key), require_str(where, "value", value)
    return _root_check(where, _label(name, key), name, key, lambda attrs: _attr(attrs, name, key, value))


@public("plancheck.acceptance")
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
    name, key, value = require_str(where, "name", name), require_str(where, "key", key), require_str(where, "value", value)
    return _module_check(where, _label(module, name, key), module, name, key, lambda attrs: _attr(attrs, name, key, value))


@public("plancheck.acceptance")
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
    where = "TestCheckResourceAttrSet"
    name, key = require_str(where, "name", name), require_str(where, "key", key)
    return _root_check(where, _label(name, key), name, key, lambda attrs: _attr_set(attrs, name, key))


@public("plancheck.acceptance")
def TestCheckModuleResourceAttrSet(mp: Any, name: str, key: str) -> CheckFunc:
    """Go's ``TestCheckModuleResourceAttrSet``: :func:`TestCheckResourceAttrSet` in module ``mp``.

    >>> from plancheck import State
    >>> TestCheckModuleResourceAttrSet("module.c", "null_resource.a", "id")(State.from_dict({"format_version": "1.0"}))
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestCheckFuncError: No module found at: module.c
    """
    where = "TestCheckModuleResourceAttrSet"
    module = module_address(where, mp)
    name, key = require_str(where, "name", name), require_str(where, "key", key)
    return _module_check(where, _label(module, name, key), module, name, key, lambda attrs: _attr_set(attrs, name, key))


@public("plancheck.acceptance")
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
    where = "TestCheckNoResourceAttr"
    name, key = require_str(where, "name", name), require_str(where, "key", key)
    return _root_check(where, _label(name, key), name, key, lambda attrs: _no_attr(attrs, name, key))


@public("plancheck.acceptance")
def TestCheckModuleNoResourceAttr(mp: Any, name: str, key: str) -> CheckFunc:
    """Go's ``TestCheckModuleNoResourceAttr``: :func:`TestCheckNoResourceAttr` in module ``mp``.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"child_modules": [
    ...     {"address": "module.c", "resources": [{"address": "module.c.null_resource.a", "values": {"id": "7"}}]}]}}})
    >>> TestCheckModuleNoResourceAttr(["c"], "null_resource.a", "name")(state)
    """
    where = "TestCheckModuleNoResourceAttr"
    module = module_address(where, mp)
    name, key = require_str(where, "name", name), require_str(where, "key", key)
    return _module_check(where, _label(module, name, key), module, name, key, lambda attrs: _no_attr(attrs, name, key))


@public("plancheck.acceptance")
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
    name, key = require_str(where, "name", name), require_str(where, "key", key)
    regex = compile_regex(where, "r", r)
    return _root_check(where, _label(name, key), name, key, lambda attrs: _match(attrs, name, key, regex))


@public("plancheck.acceptance")
def TestModuleMatchResourceAttr(mp: Any, name: str, key: str, r: str | re.Pattern[str]) -> CheckFunc:
    """Go's ``TestModuleMatchResourceAttr``: :func:`TestMatchResourceAttr` in module ``mp``.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"child_modules": [
    ...     {"address": "module.c", "resources": [{"address": "module.c.null_resource.a", "values": {"id": "7"}}]}]}}})
    >>> TestModuleMatchResourceAttr(["c"], "null_resource.a", "id", "^[0-9]$")(state)
    """
    where = "TestModuleMatchResourceAttr"
    module = module_address(where, mp)
    name, key = require_str(where, "name", name), require_str(where, "key", key)
    regex = compile_regex(where, "r", r)
    return _module_check(where, _label(module, name, key), module, name, key, lambda attrs: _match(attrs, name, key, regex))


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
    name, key = require_str(where, "name", name), require_str(where, "key", key)
    read = _pointer(where, value)
    return _root_check(where, _label(name, key), name, key, lambda attrs: _attr(attrs, name, key, read()))


@public("plancheck.acceptance")
def TestCheckModuleResourceAttrPtr(mp: Any, name: str, key: str, value: Callable[[], str]) -> CheckFunc:
    """Go's ``TestCheckModuleResourceAttrPtr``: :func:`TestCheckResourceAttrPtr` in module ``mp``.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"child_modules": [
    ...     {"address": "module.c", "resources": [{"address": "module.c.null_resource.a", "values": {"id": "7"}}]}]}}})
    >>> TestCheckModuleResourceAttrPtr(["c"], "null_resource.a", "id", lambda: "7")(state)
    """
    where = "TestCheckModuleResourceAttrPtr"
    module = module_address(where, mp)
    name, key = require_str(where, "name", name), require_str(where, "key", key)
    read = _pointer(where, value)
    return _module_check(where, _label(module, name, key), module, name, key, lambda attrs: _attr(attrs, name, key, read()))


@public("plancheck.acceptance")
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
    name, key = require_str(where, "name", name), require_str(where, "key", key)
    if not callable(check_value_func):
        raise TestDefinitionError(where, f"check_value_func: expected a callable, got {type(check_value_func).__name__}")
    return _root_check(where, _label(name, key), name, key, lambda attrs: _with(attrs, name, key, check_value_func))


def _self_pair(where: str, module1: str, name1: str, key1: str, module2: str, name2: str, key2: str) -> None:
    if module1 == module2 and name1 == name2 and key1 == key2:
        raise TestDefinitionError(where, f"comparing self: resource {name1} attribute {key1}")


@public("plancheck.acceptance")
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
        if regex.search(output.value) is None:
            raise Fail(f"Output '{name}': {output.go_repr()} didn't match {shown(regex.pattern, output.sensitive)}")

    return leaf(where, _label(name), name, None, run)
