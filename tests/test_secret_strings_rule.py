"""The strings of a secret value are defined once (plancheck._redact.collect_secret_strings), and every
collector of secrets (plans, states, variables, mock calls, initial states, configurations, flatmaps,
query inputs, leftovers, the CLI's variables files) yields exactly those strings for the same value.

Collectors still decide WHICH values are secret (marks, a schema's sensitive attributes, a
``sensitive`` declaration, a Sensitive wrapper); this file feeds each one the same secret value and
compares what it collected with the one rule."""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from plancheck._redact import MIN_SECRET_LENGTH, secret_strings
from plancheck._text import number_spellings

#: One secret value holding every kind of thing the rule spells: strings, keys, numbers of every spelling.
SECRET_TEXT = (
    '{"alice": "s3cret-pw", "ratio": 1.10, "thousand": 1E+3, "big": 1000000000000000000000000000001,'
    ' "list": [12345, true, null, "xyz", {"inner-key": "deep-value"}], "987": "keyed"}'
)
SECRET: Any = json.loads(SECRET_TEXT, parse_float=Decimal)
EXPECTED = frozenset(s for s in secret_strings(SECRET) if len(s) >= MIN_SECRET_LENGTH)


def test_the_rule_spells_keys_and_every_number_form() -> None:
    assert {
        "alice", "s3cret-pw", "ratio", "1.10", "1.1", "thousand", "1000", "1E+3", "big",
        "1000000000000000000000000000001", "list", "12345", "xyz", "inner-key", "deep-value", "987", "keyed",
    } == EXPECTED


@pytest.mark.parametrize(
    ("number", "spellings"),
    [
        pytest.param(Decimal("1.10"), ("1.1", "1.10"), id="trailing-zero-as-terraform-prints-and-as-written"),
        pytest.param(Decimal("1E+3"), ("1000", "1E+3"), id="exponent-as-terraform-prints-and-python-str"),
        pytest.param(1e3, ("1000", "1000.0"), id="float-integral"),
        pytest.param(0.125, ("0.125",), id="float-fraction"),
        pytest.param(10**30, ("1" + "0" * 30,), id="large-int"),
        pytest.param(Decimal("12345678901234567890.1234567890123"), ("12345678901234567890.1234567890123",),
                     id="long-decimal-not-rounded"),
        pytest.param(Decimal("-0.00"), ("-0", "-0.00"), id="negative-zero"),
        pytest.param(Decimal("sNaN"), ("sNaN",), id="signalling-nan"),
        pytest.param(Decimal("1E+99999"), ("1E+99999",), id="huge-exponent"),
    ],
)
def test_number_spellings(number: Any, spellings: tuple[str, ...]) -> None:
    assert number_spellings(number) == spellings


def _plan_marked() -> set[str]:
    from plancheck._documents.sensitive import collect_plan_secrets

    doc = {"resource_changes": [{"address": "t.a", "change": {"actions": ["create"], "before": None,
                                                              "after": {"v": SECRET, "open": "x"},
                                                              "after_sensitive": {"v": True}}}]}
    return set(collect_plan_secrets(doc).ordered)


def _plan_variable() -> set[str]:
    from plancheck._documents.sensitive import collect_plan_secrets

    doc = {"variables": {"pw": {"value": SECRET}},
           "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}}}
    return set(collect_plan_secrets(doc).ordered)


def _plan_output() -> set[str]:
    from plancheck._documents.sensitive import collect_plan_secrets

    doc = {"output_changes": {"o": {"actions": ["create"], "before": None, "after": SECRET, "after_sensitive": True}}}
    return set(collect_plan_secrets(doc).ordered)


def _state_output() -> set[str]:
    from plancheck._documents.sensitive import collect_state_secrets

    doc = {"values": {"outputs": {"o": {"value": SECRET, "sensitive": True}}}}
    return set(collect_state_secrets(doc).ordered)


def _acceptance_sensitive() -> set[str]:
    from plancheck.acceptance import Sensitive
    from plancheck.acceptance._case import sensitive_strings

    return set(sensitive_strings({"open": "plain", "pw": Sensitive(SECRET)}))


def _initial_state(attribute: bool) -> Callable[[Path], set[str]]:
    def collect(tmp_path: Path) -> set[str]:
        from plancheck.acceptance._statefiles import read_initial_state

        resources = outputs = ""
        if attribute:
            resources = ('{"mode": "managed", "type": "t", "name": "n", "provider": "p", "instances": [{"schema_version": 0,'
                         ' "attributes": {"v": ' + SECRET_TEXT + ', "open": "plain"},'
                         ' "sensitive_attributes": [[{"type": "get_attr", "value": "v"}]]}]}')
        else:
            outputs = '"o": {"value": ' + SECRET_TEXT + ', "type": "dynamic", "sensitive": true}'
        path = tmp_path / "s.tfstate"
        path.write_text('{"version": 4, "terraform_version": "1.0.3", "serial": 1, "lineage": "x",'
                        ' "outputs": {' + outputs + '}, "resources": [' + resources + "]}")
        return set(read_initial_state(str(path)).secrets)

    return collect


def _mock_schema() -> set[str]:
    from plancheck._terraform.mock.schema import read_provider_schema
    from plancheck._terraform.mock.values import sensitive_strings

    doc = {"resource_schemas": {"t": {"block": {"attributes": {
        "v": {"type": "dynamic", "optional": True, "sensitive": True}, "name": {"type": "string", "optional": True}}}}}}
    return set(sensitive_strings(read_provider_schema(doc, "a/b").resources["t"].block, {"v": SECRET, "name": "n"}))


def _cli_variables_file(tmp_path: Path) -> set[str]:
    from plancheck._terraform.mock.plan import input_secrets

    (tmp_path / "v.tf").write_text('variable "pw" {\n  sensitive = true\n}\n')
    (tmp_path / "v.tfvars.json").write_text('{"pw": ' + SECRET_TEXT + ', "open": "plain"}')
    return set(input_secrets(tmp_path, [], [str(tmp_path / "v.tfvars.json")], {}).ordered)


def _config_default() -> set[str]:
    from plancheck.tfconfig import config_from_dict

    return set(config_from_dict({"variable": {"pw": {"sensitive": True, "default": SECRET}}}).secrets.ordered)


def _flatmap() -> set[str]:
    from plancheck.acceptance import flatten

    return set(flatten({"v": SECRET, "open": "plain"}, {"v": True}).secrets.ordered)


def _query_input() -> set[str]:
    from plancheck._documents.query import QueryStart

    start = QueryStart({"list_start": {"address": "list.a.b", "input_config": {"v": SECRET, "open": "plain"},
                                       "sensitive_attribute_paths": [".v"]}})
    return set(start.secret_strings())


def _leftover_variables(tmp_path: Path) -> set[str]:
    from plancheck.acceptance._statefiles import kept_secrets

    (tmp_path / "terraform.tfvars.json").write_text('{"pw": ' + SECRET_TEXT + "}")
    return set(kept_secrets(tmp_path))


COLLECTORS: dict[str, Callable[..., set[str]]] = {
    "plan-marked-attribute": _plan_marked,
    "plan-sensitive-variable": _plan_variable,
    "plan-sensitive-output": _plan_output,
    "state-sensitive-output": _state_output,
    "acceptance-Sensitive": _acceptance_sensitive,
    "initial-state-output": _initial_state(False),
    "initial-state-attribute": _initial_state(True),
    "mock-schema-sensitive-attribute": _mock_schema,
    "cli-variables-file": _cli_variables_file,
    "config-sensitive-default": _config_default,
    "flatmap-marked": _flatmap,
    "query-sensitive-input": _query_input,
    "leftover-variables": _leftover_variables,
}


@pytest.mark.parametrize("name", list(COLLECTORS))
def test_every_collector_yields_the_strings_of_the_one_rule(name: str, tmp_path: Path) -> None:
    collect = COLLECTORS[name]
    found = collect(tmp_path) if collect.__code__.co_argcount else collect()
    assert {s for s in found if len(s) >= MIN_SECRET_LENGTH} == EXPECTED


# -- no second walk -------------------------------------------------------------------------------

PACKAGE = Path(__file__).resolve().parent.parent / "plancheck"
_NUMBERS = {"int", "float", "Decimal"}
#: Functions that walk a value testing for strings and numbers, but copy, convert, render or parse it:
#: none of them gathers the strings of a secret.
_NOT_COLLECTORS = {
    ("_documents/plan.py", "replace_paths"),
    ("acceptance/_case.py", "unwrap_sensitive"),
    ("cli/_checksfile.py", "convert"),
    ("_documents/query.py", "_numbered"),  # QueryOutput's (line, message) pairs checked, handed on unchanged
    ("cli/_waivers.py", "parse_baseline"),  # a baseline file's entries (a version read as a Decimal is refused)
    ("snapshot/_secrets.py", "canonical_json"),
    ("snapshot/_values.py", "walk"),
    ("tfconfig/_json_reader.py", "python_to_node"),
}


def _string_walkers() -> set[tuple[str, str]]:
    """Functions that loop over a value, test for str and for a number type, and gather (add, append, yield)."""
    found: set[tuple[str, str]] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            tested: set[str] = set()
            loops = gathers = False
            for node in ast.walk(fn):
                if isinstance(node, (ast.While, ast.For)):
                    loops = True
                elif isinstance(node, (ast.Yield, ast.YieldFrom)):
                    gathers = True
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                    gathers = gathers or node.func.attr in ("add", "append", "extend", "update")
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
                    kinds = node.args[1]
                    tested.update(e.id for e in (kinds.elts if isinstance(kinds, ast.Tuple) else [kinds])
                                  if isinstance(e, ast.Name))
                elif isinstance(node, ast.Compare) and any(isinstance(op, ast.Is) for op in node.ops):
                    tested.update(e.id for e in node.comparators if isinstance(e, ast.Name))
            if loops and gathers and "str" in tested and tested & _NUMBERS:
                found.add((path.relative_to(PACKAGE).as_posix(), fn.name))
    return found


def test_only_the_one_rule_walks_a_value_gathering_its_strings_and_numbers() -> None:
    assert _string_walkers() - _NOT_COLLECTORS == {("_redact.py", "collect_secret_strings")}
