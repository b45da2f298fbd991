"""A misused argument of anything in plancheck is a ``plancheck.ArgumentError``; in tfjsonpath, a
``tfjsonpath.PathArgumentError``.

One typed error (a ``TfCheckError``, so ``except plancheck.TfCheckError`` sees it, and a ``TypeError`` and a
``ValueError``, which these misuses raised before), its message as it was; and a rule that no bare builtin
``TypeError``/``ValueError`` is raised anywhere in plancheck but in the functions :data:`ALLOWED` names, each with
its reason (a protocol that expects the builtin, or an invariant no caller's argument breaks). The same rule holds
in tfjsonpath (:data:`ALLOWED_TFJSONPATH`), whose misuses tests/tfjsonpath/test_path_build.py pins one by one.
"""

from __future__ import annotations

import ast
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import plancheck
from plancheck import ArgumentError, TfCheckError, acceptance, compare, snapshot
from plancheck import knownvalue as kv
from plancheck import querycheck as qc
from plancheck import statecheck as sc
from plancheck import tfconfig as tc
from plancheck.cli import run as cli_run
from tfjsonpath import New, PathArgumentError

ROOT = Path(__file__).resolve().parents[1]
BUILTINS = ("TypeError", "ValueError")
PLAN = plancheck.Plan.from_dict({"format_version": "1.2"})
STATE = plancheck.State.from_dict({"format_version": "1.0"})

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
                 "StringFunc function <lambda> must return None, True, False or an exception (or raise), got str",
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
    pytest.param(lambda: tc.parse_config("{}", flavor="tofu"),
                 "parse_config: flavor must be 'terraform' or 'opentofu', got 'tofu'", id="tfconfig-parse-flavor"),
    pytest.param(lambda: tc.config_from_dict({}, flavor=["opentofu"]),
                 "config_from_dict: flavor must be 'terraform' or 'opentofu', got ['opentofu']",
                 id="tfconfig-dict-flavor-unhashable"),
    pytest.param(lambda: tc.parse_config("{}", strict="no"), "parse_config: strict must be a bool, got str",
                 id="tfconfig-parse-flag-not-bool"),
    pytest.param(lambda: tc.write_config({}, ROOT, filename="x.json"),
                 "filename must be a plain file name ending with .tf.json or .tofu.json, got 'x.json'",
                 id="tfconfig-write-filename"),
    pytest.param(lambda: tc.parse_template(1), "parse_template expects a str, got int", id="tfconfig-template-not-str"),
    # tfconfig: the Config constructor ("'int' object is not iterable"; a list of dicts was kept, for an accessor to
    # meet later; a str of file names became its characters)
    pytest.param(lambda: tc.Config(5), "Config: blocks must be an iterable of Block, got int", id="tfconfig-config-blocks-int"),
    pytest.param(lambda: tc.Config([{"resource": {}}]), "Config: blocks[0] must be Block, got dict",
                 id="tfconfig-config-block-a-dict"),
    pytest.param(lambda: tc.Config([], files="main.tf.json"), "Config: files must be an iterable of str, got str",
                 id="tfconfig-config-files-one-str"),
    pytest.param(lambda: tc.Config([], ignored=[None]), "Config: ignored[0] must be IgnoredProperty, got NoneType",
                 id="tfconfig-config-ignored-none"),
    pytest.param(lambda: tc.Config([], directory=3), "Config: directory must be a str or None, got int",
                 id="tfconfig-config-directory-int"),
    pytest.param(lambda: tc.parse_reference(1), "parse_reference expects a str, got int", id="tfconfig-reference-not-str"),
]


#: The rest of plancheck: one misuse per place a public entry point raised a bare builtin (a lower helper's raise).
PLANCHECK_MISUSES: list[Any] = [
    # checks
    pytest.param(lambda: tc.ExpectResource(1, "b"),
                 "ExpectResource: type must be a str, got int", id="checks-address-not-str"),
    pytest.param(lambda: plancheck.ExpectResourceAction("", plancheck.ResourceAction.Create),
                 "ExpectResourceAction: address must not be empty", id="checks-address-empty"),
    pytest.param(lambda: plancheck.ExpectKnownValue("a.b", "id", kv.Null()),
                 "ExpectKnownValue: path must be a tfjsonpath.Path, got str (to use text, parse it: "
                 "tfjsonpath.Path.parse('id'))", id="checks-path-is-text"),
    pytest.param(lambda: plancheck.ExpectKnownValue("a.b", New("id"), "x"),
                 "ExpectKnownValue: matcher must be a knownvalue check, got str (wrap plain values with "
                 "knownvalue.exact())", id="checks-matcher-not-a-check"),
    pytest.param(lambda: plancheck.ExpectEachKnownValue("a.*", New("id"), kv.Null(), unknown="wran"),
                 "ExpectEachKnownValue: unknown must be 'fail', 'pass' or 'warn', got 'wran' (did you mean "
                 "'warn'?)", id="checks-unknown-mode"),
    pytest.param(lambda: plancheck.ExpectEachKnownValue(1, New("id"), kv.Null()),
                 "ExpectEachKnownValue: selector must be a plancheck.Resources, a plancheck.Actions or an "
                 "address glob (str), got int", id="checks-selector-not-str"),
    pytest.param(lambda: plancheck.ExpectCount("a.*", -1),
                 "ExpectCount: n must be >= 0, got -1", id="checks-count-negative"),
    pytest.param(lambda: plancheck.ExpectActionCounts(),
                 "ExpectActionCounts: give at least one count (create, update, delete, replace, noop, "
                 "read, forget, invoke)", id="checks-no-count"),
    pytest.param(lambda: plancheck.ExpectResourceReplacePaths("a.b", New("id")),
                 "ExpectResourceReplacePaths: paths must be a list of tfjsonpath Paths, got Path", id="checks-replace-paths-not-a-list"),
    pytest.param(lambda: plancheck.assert_plan(PLAN, [plancheck.ExpectEmptyPlan()]),
                 "assert_plan: check 1 must be a PlanCheck, got list; to pass a list of checks, unpack it: "
                 "assert_plan(plan, *checks)", id="checks-list-passed-whole"),
    pytest.param(lambda: plancheck.assert_plan({}),
                 "assert_plan expects a plancheck.Plan (use load_plan or Plan.from_dict), got dict", id="checks-document-not-a-plan"),
    pytest.param(lambda: tc.ExpectResource("a", "b").check_config(None),
                 "ExpectResource.check_config expects a plancheck.tfconfig.Config (load_config, "
                 "parse_config), a dict or a list of dicts, got NoneType", id="checks-config-not-a-config"),
    pytest.param(lambda: kv.Null().CheckValue(None, secrets="x"),
                 "CheckValue: secrets must be a plancheck Secrets, got str", id="checks-check-value-secrets"),
    # compare
    pytest.param(lambda: compare.ValuesSame().CompareValues([{1}, 2]),
                 "CompareValues: values[0] is not a JSON value: non-JSON set", id="compare-values-not-json"),
    # documents
    pytest.param(lambda: plancheck.Plan("{}"),
                 "Plan() takes a plan document already parsed (a dict), got str: load one with "
                 "plancheck.load_plan, Plan.from_json or Plan.from_dict", id="documents-plan-not-a-dict"),
    pytest.param(lambda: plancheck.State("{}"),
                 "State() takes a state document already parsed (a dict), got str: load one with "
                 "plancheck.load_state, State.from_json or State.from_dict", id="documents-state-not-a-dict"),
    pytest.param(lambda: plancheck.Plan({"format_version": "1.2"}, allow_errored="no"),
                 "Plan: allow_errored must be a bool, got str", id="documents-allow-errored-not-bool"),
    pytest.param(lambda: PLAN.resource_change(None),
                 "Plan.resource_change expects an address (str), got NoneType", id="documents-address-not-str"),
    pytest.param(lambda: plancheck.resolve_value({}, New("a"), side="middle"),
                 "resolve_value() side must be \"after\" or \"before\", got 'middle'", id="documents-resolve-side"),
    # select
    pytest.param(lambda: plancheck.Resources(mode="resource"),
                 "Resources: mode must be 'managed' or 'data', got 'resource'", id="select-mode"),
    pytest.param(lambda: plancheck.Resources(address="a["),
                 "Resources: address 'a[' is not a valid pattern: '[' at offset 1 is never closed", id="select-pattern"),
    pytest.param(lambda: plancheck.Resources(action="creat"),
                 "Resources: action 'creat' is not a ResourceAction; did you mean Create? (one of NoOp, "
                 "Create, Read, Update, Destroy, DestroyBeforeCreate, CreateBeforeDestroy, Replace, "
                 "Forget, CreateThenForget, ForgetThenCreate)", id="select-action"),
    pytest.param(lambda: plancheck.Resources(action="Create").select(STATE),
                 "Resources(action=ResourceAction.Create): action selects resource changes of a plan; a "
                 "state has no actions", id="select-action-on-a-state"),
    pytest.param(lambda: plancheck.Actions().select(STATE),
                 "Actions.select: expected a plancheck.Plan (a state records no action invocations), got "
                 "State", id="select-actions-on-a-state"),
    # loading
    pytest.param(lambda: tc.load_config(None),
                 "load_config expects a path (str or PathLike), got NoneType", id="loading-config-path-none"),
    pytest.param(lambda: plancheck.load_plan(None),
                 "load_plan expects a path, file object, bytes or dict, got NoneType", id="loading-plan-source-none"),
    pytest.param(lambda: plancheck.Plan.from_json(1),
                 "Plan.from_json expects str or bytes, got int", id="loading-from-json-not-text"),
    pytest.param(lambda: plancheck.load_state(io.BytesIO(b"{}"), max_bytes=0),
                 "max_bytes must be a positive number of bytes, got 0", id="loading-max-bytes"),
    pytest.param(lambda: plancheck.load_plan(io.BytesIO(b"{}"), parser="quick"),
                 "parser must be one of auto, stdlib, fast, got 'quick'", id="loading-parser"),
    pytest.param(lambda: plancheck.load_plan(io.BytesIO(b"{}"), validation="quick"),
                 "validation must be one of fast, full, got 'quick'", id="loading-validation"),
    pytest.param(lambda: qc.load_query({}),
                 "load_query expects a path, file object or bytes (use QueryOutput.from_messages for "
                 "parsed messages)", id="loading-query-dict"),
    # redact
    pytest.param(lambda: plancheck.Secrets("x"),
                 "Secrets values must be an iterable of str (one: Secrets(['...'])), got str", id="redact-secrets-str"),
    pytest.param(lambda: plancheck.Secrets([1]),
                 "Secrets values[0] must be a str, got int", id="redact-secret-not-str"),
    # A part that is no Secrets was a bare AttributeError ("'str' object has no attribute '_values'"), no iterable a
    # bare TypeError.
    pytest.param(lambda: plancheck.Secrets.union(["hunter2"]),
                 "Secrets.union expects an iterable of Secrets, got a str among them", id="redact-union-part-a-str"),
    pytest.param(lambda: plancheck.Secrets.union([plancheck.Secrets(["a"]), None]),
                 "Secrets.union expects an iterable of Secrets, got a NoneType among them", id="redact-union-part-none"),
    pytest.param(lambda: plancheck.Secrets.union(plancheck.Secrets(["a"])),
                 "Secrets.union expects an iterable of Secrets, got Secrets", id="redact-union-one-secrets"),
    pytest.param(lambda: plancheck.Secrets.union(iter([None])),
                 "Secrets.union expects an iterable of Secrets, got a part of another type among them",
                 id="redact-union-one-shot-iterator"),
    pytest.param(lambda: plancheck.revealing_sensitive("no").__enter__(),
                 "revealing_sensitive: reveal must be a bool, got str", id="redact-reveal-not-bool"),
    # errors
    pytest.param(lambda: plancheck.PlanCheckError([]),
                 "PlanCheckError needs at least one failure", id="errors-no-failure"),
    # cli
    pytest.param(lambda: cli_run("check plan.json", stdout=io.StringIO(), stderr=io.StringIO()),
                 "run() argv must be a list of str (the arguments after tfplancheck), got str", id="cli-argv-str"),
    # querycheck
    pytest.param(lambda: qc.ExpectLength("list.a.b", -1),
                 "ExpectLength: length must be >= 0, got -1", id="querycheck-length-negative"),
    pytest.param(lambda: qc.QueryOutput.from_json(1),
                 "QueryOutput.from_json expects str or bytes, got int", id="querycheck-from-json-not-text"),
    # statecheck
    pytest.param(lambda: sc.CompareValue(1),
                 "CompareValue: comparer must be a compare.ValueComparer (e.g. compare.ValuesSame()), got "
                 "int", id="statecheck-comparer"),
    pytest.param(lambda: sc.ExpectEachKnownValue(plancheck.Resources(action="Create"), New("id"), kv.Null()),
                 "ExpectEachKnownValue: the selector's action selects resource changes of a plan; a state "
                 "has none", id="statecheck-action-selector"),
    pytest.param(lambda: sc.CompareValueCollection("a.b", [], "c.d", New("id"), compare.ValuesSame()),
                 "CompareValueCollection: collection_path must hold at least one path (Go: no collection "
                 "path was provided)", id="statecheck-no-collection-path"),
    # acceptance: the flatmap of Go's check functions (a bare AttributeError "'dict' object has no attribute 'raw'",
    # "dictionary update sequence element #0 has length 1", "unhashable type: 'list'"; None was an answer of False)
    pytest.param(lambda: acceptance.FlatState.of({"format_version": "1.0"}),
                 "FlatState expects a plancheck.State, got dict", id="acceptance-flat-state-not-a-state"),
    pytest.param(lambda: acceptance.FlatAttributes(["ab"]),
                 "FlatAttributes expects a mapping of flatmap keys to strings, got list", id="acceptance-flat-entries-a-list"),
    pytest.param(lambda: acceptance.FlatState.of(STATE).attributes(["a.b"]),
                 "FlatState.attributes expects a resource name (str), got list", id="acceptance-flat-name-a-list"),
    pytest.param(lambda: acceptance.FlatState.of(STATE).attributes("a.b", {}),
                 "FlatState.attributes expects a module address (str), got dict", id="acceptance-flat-module-a-dict"),
    pytest.param(lambda: acceptance.FlatState.of(STATE).names([]),
                 "FlatState.names expects a module address (str), got list", id="acceptance-flat-names-module-a-list"),
    pytest.param(lambda: acceptance.FlatState.of(STATE).has_module(None),
                 "FlatState.has_module expects a module address (str), got NoneType", id="acceptance-flat-module-none"),
    # snapshot
    pytest.param(lambda: snapshot.resolve_key("short"),
                 "plancheck.snapshot: a fingerprint key must be at least 16 bytes long, got 5 (use a "
                 "random CI secret)", id="snapshot-key-short"),
    pytest.param(lambda: snapshot.FingerprintKey("k"),
                 "FingerprintKey key must be bytes, got str (make it with resolve_key)", id="snapshot-key-not-bytes"),
    pytest.param(lambda: snapshot.parse_ignore_spec("type=a,type=b"),
                 "'type=a,type=b': type= is given twice", id="snapshot-ignore-twice"),
    pytest.param(lambda: snapshot.render({}),
                 "render() plan must be a plancheck.Plan, got dict (load it with plancheck.load_plan)", id="snapshot-render-not-a-plan"),
]


@pytest.mark.parametrize(("call", "message"), MISUSES + PLANCHECK_MISUSES)
def test_a_misused_argument_is_an_argument_error_with_its_message(call: Callable[[], object], message: str) -> None:
    with pytest.raises(TfCheckError) as caught:
        call()
    error = caught.value
    assert (type(error), str(error)) == (ArgumentError, message)
    # Still what it was before: code that caught the builtin goes on catching it.
    assert (isinstance(error, TypeError), isinstance(error, ValueError)) == (True, True)


#: The two errors that say more than ArgumentError (where in a test case; which argument of mock_plan): its
#: subclasses, each still every base it had before.
_DEFINITION_BASES = (TfCheckError, TypeError, ValueError)
SUBCLASSES: list[Any] = [
    pytest.param(lambda: acceptance.TestStep(config="x", plan_only="yes"), acceptance.TestDefinitionError,
                 _DEFINITION_BASES, "TestStep.plan_only: expected a bool, got str", id="test-definition-field"),
    pytest.param(lambda: acceptance.TestCase(steps=[]), acceptance.TestDefinitionError, _DEFINITION_BASES,
                 "TestCase.steps: a test case needs at least one step", id="test-definition-no-step"),
    pytest.param(lambda: acceptance.mock_plan(3, mocks=[]), acceptance.MockPlanArgumentError,
                 (acceptance.MockPlanError, *_DEFINITION_BASES),
                 "module_dir: expected a path (str or os.PathLike), got int", id="mock-plan-module-dir"),
]


@pytest.mark.parametrize(("call", "error", "old_bases", "message"), SUBCLASSES)
def test_a_misused_test_definition_or_mock_plan_is_an_argument_error(
    call: Callable[[], object], error: type[Exception], old_bases: tuple[type[Exception], ...], message: str
) -> None:
    with pytest.raises(ArgumentError) as caught:
        call()
    assert (type(caught.value), str(caught.value)) == (error, message)
    assert [isinstance(caught.value, base) for base in old_bases] == [True] * len(old_bases)


def test_argument_error_is_public_in_plancheck() -> None:
    assert (ArgumentError.__module__, "ArgumentError" in plancheck.__all__) == ("plancheck", True)
    assert [issubclass(ArgumentError, base) for base in (TfCheckError, TypeError, ValueError)] == [True, True, True]


#: The functions that still build a bare TypeError/ValueError, as ``file:function``, each with why: none is about
#: a caller's argument, or a protocol expects the builtin.
ALLOWED: dict[str, str] = {
    "plancheck/_frozen.py:renamed_keywords.wrap.__init__":
        "extends Python's own call-signature TypeError (got both old= and new=); below _errors, which imports it",
    "plancheck/_frozen.py:keyword_hints.wrap.__init__":
        "rewords Python's own TypeError for an unexpected keyword argument; below _errors, which imports it",
    "plancheck/_checking/matcher.py:Check.__hash__":
        "the hash() protocol: an object that cannot be hashed raises TypeError",
    "plancheck/_checking/run.py:listed":
        "a check's own return value, its bug, not an argument: reported as that check's failure (raised TypeError)",
    "plancheck/_checking/matcher.py:Check._visit":
        "a check's own mismatch() return value, its bug, not an argument: reported as that check's failure",
    "plancheck/_loading/jsontext.py:_relocated":
        "internal: relocates a JSONDecodeError, which _syntax_error then raises as the document's format error",
    "plancheck/_loading/members.py:_reject_constant": "a json parse_constant hook: the decoder expects ValueError",
    "plancheck/_loading/members.py:_unique_keys": "a json object_pairs_hook: the decoder expects ValueError",
    "plancheck/_loading/members.py:_expect": "internal scanner signal, caught by find_members (falls back to a full parse)",
    "plancheck/_loading/members.py:_value_end": "internal scanner signal, caught by find_members (falls back to a full parse)",
    "plancheck/_loading/parallel.py:_parse_array": "internal scanner signal, caught by _split_text (no split then)",
    "plancheck/_loading/split.py:msgspec_type": "internal: a bundled schema msgspec cannot take, caught (validated in Python)",
    "plancheck/_loading/validate.py:_resolve": "internal invariant on the bundled JSON schema",
    "plancheck/_loading/validate.py:_compile_check": "internal invariant on the bundled JSON schema",
    "plancheck/_loading/validate.py:SchemaNode.__init__": "internal invariant on the bundled JSON schema",
    "plancheck/_loading/validate.py:SchemaValidator._compile": "internal invariant on the bundled JSON schema",
    "plancheck/_loading/validate.py:SchemaValidator.full_violations": "internal invariant on the bundled JSON schema",
    "plancheck/snapshot/_format.py:_reject": "a json parse_constant hook: the decoder expects ValueError",
    "plancheck/snapshot/_secrets.py:FingerprintKey.__reduce__":
        "the pickle protocol: an object that refuses pickling raises TypeError",
    "plancheck/snapshot/_syrupy.py:PlanSnapshotExtension.write_snapshot_collection":
        "internal invariant: syrupy hands back the text serialize() made",
}


def _bare_builtins(tree: ast.AST) -> list[tuple[int, str, str]]:
    """Where a builtin TypeError/ValueError is built or raised (a helper returning one to raise counts too), and
    in which function (its qualified name; empty at module level)."""
    found: list[tuple[int, str, str]] = []

    def visit(node: ast.AST, owner: str) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            owner = f"{owner}.{node.name}" if owner else node.name
        target = node.func if isinstance(node, ast.Call) else node.exc if isinstance(node, ast.Raise) else None
        if isinstance(target, ast.Name) and target.id in BUILTINS:
            found.append((node.lineno, target.id, owner))
        for child in ast.iter_child_nodes(node):
            visit(child, owner)

    visit(tree, "")
    return sorted(set(found))


#: tfjsonpath's one bare builtin, as ``file:function``, with why.
ALLOWED_TFJSONPATH: dict[str, str] = {
    "tfjsonpath/_path.py:Path.__getitem__":
        "the subscript protocol: a wrong index type is the builtin TypeError a list or tuple raises",
}

#: Each package scanned: its allow-list, the typed error it raises instead, and at least how many it builds (so
#: that the scan reads the modules that raise them, not an empty or moved tree).
PACKAGES: list[Any] = [
    pytest.param("plancheck", ALLOWED, "ArgumentError", 100, id="plancheck"),
    pytest.param("tfjsonpath", ALLOWED_TFJSONPATH, "PathArgumentError", 10, id="tfjsonpath"),
]


def _raised_typed_errors(tree: ast.AST, typed: str) -> int:
    return sum(
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == typed
        for node in ast.walk(tree)
    )


def _scan(package: str, allowed: dict[str, str], typed_name: str) -> tuple[list[str], set[str], int]:
    """Every bare builtin outside the allow-list, the allow-list entries that still build one, and how many of
    the typed error the scan saw."""
    offenders: list[str] = []
    used: set[str] = set()
    typed = 0
    for module in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        where = module.relative_to(ROOT).as_posix()
        for line, name, owner in _bare_builtins(tree):
            if f"{where}:{owner}" in allowed:
                used.add(f"{where}:{owner}")
            else:
                offenders.append(f"{where}:{line}: {name} in {owner or 'the module'}")
        typed += _raised_typed_errors(tree, typed_name)
    return offenders, used, typed


@pytest.mark.parametrize(("package", "allowed", "typed_name", "at_least"), PACKAGES)
def test_no_bare_builtin_error_is_raised(package: str, allowed: dict[str, str], typed_name: str, at_least: int) -> None:
    offenders, _, typed = _scan(package, allowed, typed_name)
    assert offenders == [], f"raise {package}.{typed_name} for a misused argument, or allow it"
    assert typed > at_least


@pytest.mark.parametrize(("package", "allowed", "typed_name", "at_least"), PACKAGES)
def test_every_allowed_function_still_builds_a_bare_builtin(
    package: str, allowed: dict[str, str], typed_name: str, at_least: int
) -> None:
    _, used, _ = _scan(package, allowed, typed_name)
    assert sorted(set(allowed) - used) == []  # a stale entry would let a new bare raise there pass unseen


def test_the_path_subscript_keeps_the_protocols_builtin() -> None:
    # The one allowed bare raise in tfjsonpath: New("a")["x"] is a TypeError as a list's ["x"] is.
    with pytest.raises(TypeError) as caught:
        New("a")["x"]  # type: ignore[call-overload]
    assert (type(caught.value), str(caught.value)) == (TypeError, "Path indices must be ints or slices, got str")
    assert not isinstance(caught.value, PathArgumentError)


@pytest.mark.parametrize(("source", "expected"), [
    pytest.param("raise TypeError('x')", [(1, "TypeError", "")], id="raise-call"),
    pytest.param("raise ValueError", [(1, "ValueError", "")], id="raise-class"),
    pytest.param("def f():\n    return ValueError('x')", [(2, "ValueError", "f")], id="built-to-raise-later"),
    pytest.param("class C:\n    def m(self):\n        def g():\n            raise TypeError\n",
                 [(4, "TypeError", "C.m.g")], id="nested-function-named-by-its-qualified-name"),
    pytest.param("raise ArgumentError('x')", [], id="typed"),
    pytest.param("try:\n    pass\nexcept TypeError:\n    raise", [], id="caught-not-raised"),
])
def test_the_rule_scan_sees_every_bare_builtin(source: str, expected: list[tuple[int, str, str]]) -> None:
    assert _bare_builtins(ast.parse(source)) == expected
