"""A misused argument of a matcher, a comparer or a configuration check or reader is a ``plancheck.ArgumentError``.

One typed error (a ``TfCheckError``, so ``except plancheck.TfCheckError`` sees it, and a ``TypeError`` and a
``ValueError``, which these misuses raised before), its message as it was; and a rule that no bare builtin
``TypeError``/``ValueError`` is raised in ``plancheck.knownvalue``, ``plancheck.compare`` or ``plancheck.tfconfig``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import plancheck
from plancheck import ArgumentError, TfCheckError, compare
from plancheck import knownvalue as kv
from plancheck import tfconfig as tc
from tfjsonpath import New

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("knownvalue", "compare", "tfconfig")
BUILTINS = ("TypeError", "ValueError")

MISUSES: list[Any] = [
    # knownvalue: scalars
    pytest.param(lambda: kv.StringExact(1), "StringExact expects a str, got int", id="knownvalue-scalar-wrong-type"),
    pytest.param(lambda: kv.Int64Exact(2**63),
                 "Int64Exact value must be an int64 (from -9223372036854775808 to 9223372036854775807), got "
                 "9223372036854775808", id="knownvalue-int64-out-of-range"),
    pytest.param(lambda: kv.NumberExact(float("nan")), "NumberExact value must be finite, got nan",
                 id="knownvalue-number-not-finite"),
    pytest.param(lambda: kv.Float32Exact(1e39), "Float32Exact value is out of the float32 range: 1e+39",
                 id="knownvalue-float32-out-of-range"),
    pytest.param(lambda: kv.StringRegexp("("),
                 "StringRegexp: invalid regular expression '(': missing ), unterminated subpattern at position 0",
                 id="knownvalue-regexp-invalid"),
    pytest.param(lambda: kv.StringRegexp("a", re.DEBUG),
                 "StringRegexp: re.DEBUG prints the compiled pattern on standard output: leave it out",
                 id="knownvalue-regexp-debug-flag"),
    pytest.param(lambda: kv.StringRegexp(re.compile("a"), re.I),
                 "StringRegexp: cannot add flags to an already compiled pattern", id="knownvalue-regexp-flags-on-compiled"),
    # knownvalue: collections
    pytest.param(lambda: kv.ListExact("ab"), "ListExact expects a list of checks, got str",
                 id="knownvalue-list-not-a-list"),
    pytest.param(lambda: kv.MapExact([1]), "MapExact expects a dict of key to check, got list",
                 id="knownvalue-map-not-a-dict"),
    pytest.param(lambda: kv.ListPartial({-1: kv.Null()}), "ListPartial index must be >= 0, got -1",
                 id="knownvalue-partial-negative-index"),
    pytest.param(lambda: kv.MapPartial({1: kv.Null()}), "MapPartial key must be a str, got int: 1",
                 id="knownvalue-partial-key-not-str"),
    pytest.param(lambda: kv.ListSizeExact(-1), "ListSizeExact size must be >= 0, got -1",
                 id="knownvalue-negative-size"),
    # knownvalue: exact values and explanations
    pytest.param(lambda: kv.exact({"a": {1}}), "exact: the value at a is not a JSON value: non-JSON set",
                 id="knownvalue-exact-not-json"),
    pytest.param(lambda: kv.explain_mismatch(1, 2), "explain_mismatch expects a knownvalue check, got int",
                 id="knownvalue-explain-not-a-check"),
    # knownvalue: functions
    pytest.param(lambda: kv.StringFunc(1), "StringFunc expects a function, got int", id="knownvalue-func-not-callable"),
    pytest.param(lambda: kv.StringFunc(lambda s: "yes").CheckValue("x"),
                 "StringFunc function <lambda> must return None, True or False (or raise), got str",
                 id="knownvalue-func-returns-other"),
    # compare
    pytest.param(lambda: compare.ValuesSame().CompareValues("ab"), "CompareValues expects a list of values, got str",
                 id="compare-values-not-a-list"),
    pytest.param(lambda: compare.ValuesSame().CompareValues([1, 2], sensitive=[None]),
                 "CompareValues: sensitive has 1 marks trees for 2 values", id="compare-marks-count"),
    # tfconfig: checks
    pytest.param(lambda: tc.ExpectResource("a", "b", mode="resource"),
                 "ExpectResource: mode must be 'managed', 'data' or 'ephemeral', got 'resource'",
                 id="tfconfig-check-mode"),
    pytest.param(lambda: tc.ExpectResourceCount("a", -1), "ExpectResourceCount: count must be a non-negative int, got -1",
                 id="tfconfig-check-negative-count"),
    pytest.param(lambda: tc.ExpectVariable("v", sensitive="yes"), "ExpectVariable: sensitive must be a bool, got str",
                 id="tfconfig-check-flag-not-bool"),
    pytest.param(lambda: tc.ExpectReferences("a", "b", contains="x"),
                 "ExpectReferences: contains must be a list of str, got str", id="tfconfig-check-names-not-a-list"),
    pytest.param(lambda: tc.ExpectResourceAttribute("a", "b", New("c"), {"k": {1}}),
                 "ExpectResourceAttribute: expected a knownvalue check or a JSON value; exact: the value at k is not a "
                 "JSON value: non-JSON set", id="tfconfig-check-value-not-json"),
    # tfconfig: readers and writers
    pytest.param(lambda: tc.load_config(".", flavor="tofu"), "flavor must be 'terraform' or 'opentofu', got 'tofu'",
                 id="tfconfig-load-flavor"),
    pytest.param(lambda: tc.parse_config("{}", strict="no"), "parse_config: strict must be a bool, got str",
                 id="tfconfig-parse-flag-not-bool"),
    pytest.param(lambda: tc.write_config({}, ROOT, filename="x.json"),
                 "filename must be a plain file name ending with .tf.json or .tofu.json, got 'x.json'",
                 id="tfconfig-write-filename"),
    pytest.param(lambda: tc.parse_template(1), "parse_template expects a str, got int", id="tfconfig-template-not-str"),
    pytest.param(lambda: tc.parse_reference(1), "parse_reference expects a str, got int", id="tfconfig-reference-not-str"),
]


@pytest.mark.parametrize(("call", "message"), MISUSES)
def test_a_misused_argument_is_an_argument_error_with_its_message(call: Callable[[], object], message: str) -> None:
    with pytest.raises(TfCheckError) as caught:
        call()
    error = caught.value
    assert (type(error), str(error)) == (ArgumentError, message)
    # Still what it was before: code that caught the builtin goes on catching it.
    assert (isinstance(error, TypeError), isinstance(error, ValueError)) == (True, True)


def test_argument_error_is_public_in_plancheck() -> None:
    assert (ArgumentError.__module__, "ArgumentError" in plancheck.__all__) == ("plancheck", True)
    assert [issubclass(ArgumentError, base) for base in (TfCheckError, TypeError, ValueError)] == [True, True, True]


def _bare_builtins(tree: ast.AST) -> list[tuple[int, str]]:
    """Where a builtin TypeError/ValueError is built or raised (a helper returning one to raise counts too)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        target = node.func if isinstance(node, ast.Call) else node.exc if isinstance(node, ast.Raise) else None
        if isinstance(target, ast.Name) and target.id in BUILTINS:
            found.append((node.lineno, target.id))
    return sorted(set(found))


def _raised_argument_errors(tree: ast.AST) -> int:
    return sum(
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "ArgumentError"
        for node in ast.walk(tree)
    )


@pytest.mark.parametrize("package", PACKAGES)
def test_no_bare_builtin_error_is_raised_in_the_package(package: str) -> None:
    offenders: list[str] = []
    typed = 0
    for module in sorted((ROOT / "plancheck" / package).rglob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        where = module.relative_to(ROOT).as_posix()
        offenders.extend(f"{where}:{line}: {name}" for line, name in _bare_builtins(tree))
        typed += _raised_argument_errors(tree)
    assert offenders == [], "raise plancheck.ArgumentError (plancheck._errors) for a misused argument"
    assert typed > 0  # the scan reads the modules that raise them, not an empty or moved package


@pytest.mark.parametrize(("source", "expected"), [
    pytest.param("raise TypeError('x')", [(1, "TypeError")], id="raise-call"),
    pytest.param("raise ValueError", [(1, "ValueError")], id="raise-class"),
    pytest.param("def f():\n    return ValueError('x')", [(2, "ValueError")], id="built-to-raise-later"),
    pytest.param("raise ArgumentError('x')", [], id="typed"),
    pytest.param("try:\n    pass\nexcept TypeError:\n    raise", [], id="caught-not-raised"),
])
def test_the_rule_scan_sees_every_bare_builtin(source: str, expected: list[tuple[int, str]]) -> None:
    assert _bare_builtins(ast.parse(source)) == expected
