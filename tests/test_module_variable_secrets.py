"""A child module's sensitive variable or output is a secret wherever its value shows, as a root module's is.

A plan's ``variables`` and ``output_changes`` hold the root module's values only; a child module's sensitive
variable or output shows its value in the plan's ``configuration`` (a variable's ``default`` or the constant its
call passes, an output's constant), and nowhere else marked. Copied unmarked (a ``for_each`` key through
``nonsensitive``), it showed in clear: in a failing check's address (``cloud_bucket.b["<the default>"]``), in
``tfplancheck`` and ``mock-plan`` output. The plan's secrets now hold the value of every sensitive variable and
output of every module the configuration shows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import clirun
import pytest

from plancheck import ExpectResourceAction, Plan, PlanCheckError, PlanFormatError, ResourceAction, assert_plan
from plancheck._documents.sensitive import collect_plan_secrets

SECRET = "zz-child-default-4f5g6h"


def _variable(sensitive: Any, **body: Any) -> dict[str, Any]:
    return {"sensitive": sensitive, **body} if sensitive is not None else body


def _call(module: dict[str, Any], **expressions: Any) -> dict[str, Any]:
    return {"source": "./child", "expressions": expressions, "module": module}


def _plan(root_module: dict[str, Any]) -> dict[str, Any]:
    """A plan whose one resource is keyed by the secret, as ``for_each = toset([module.c.n])`` makes it; a root
    variable ``v`` is the secret, ``m`` a map holding it."""
    address = f'null_resource.b["{SECRET}"]'
    return {
        "format_version": "1.2",
        "variables": {"v": {"value": SECRET}, "m": {"value": {"a": SECRET}}},
        "terraform_version": "1.11.4",
        "resource_changes": [{
            "address": address, "mode": "managed", "type": "null_resource", "name": "b", "index": SECRET,
            "change": {"actions": ["create"], "before": None, "after": {"triggers": None}, "after_unknown": {"id": True}},
        }],
        "configuration": {"root_module": root_module},
    }


CHILD_DEFAULT = {"variables": {"pw": _variable(True, default=SECRET)}}
SENSITIVE_PW = {"variables": {"pw": _variable(True)}}
CASES = [
    pytest.param({"module_calls": {"c": _call(CHILD_DEFAULT)}}, True, id="child-default"),
    pytest.param({"module_calls": {"c": _call({"variables": {"pw": _variable(True)}}, pw={"constant_value": SECRET})}},
                 True, id="child-constant-from-its-call"),
    pytest.param({"module_calls": {"c": _call({"module_calls": {"g": _call(CHILD_DEFAULT)}})}}, True,
                 id="grandchild-default"),
    pytest.param({"module_calls": {"c": _call({"variables": {"pw": _variable(True, default=["x-1", SECRET])}})}},
                 True, id="child-default-a-list"),
    pytest.param({"module_calls": {"c": _call({"variables": {"pw": _variable("true", default=SECRET)}})}}, True,
                 id="sensitive-flag-a-string-fails-closed"),
    pytest.param({"variables": {"pw": _variable(True, default=SECRET)}}, True, id="root-default-not-given"),
    pytest.param({"module_calls": {"c": _call({"outputs": {"n": {"sensitive": True,
                                                                "expression": {"constant_value": SECRET}}}})}},
                 True, id="child-output-constant"),
    pytest.param({"module_calls": {"c": _call({"module_calls": {"g": _call({"outputs": {"n": {
        "sensitive": True, "expression": {"constant_value": [SECRET]}}}})}})}}, True, id="grandchild-output-constant"),
    # What a call passes by reference (found red-teaming #34, on real Terraform 1.11's plans too): the caller's variable
    # (the root's as the plan's variables give it), the call's for_each key or value, through a module between.
    pytest.param({"variables": {"v": {}},
                  "module_calls": {"c": _call(SENSITIVE_PW, pw={"references": ["var.v"]})}}, True,
                 id="child-given-the-roots-variable"),
    pytest.param({"module_calls": {"c": {**_call(SENSITIVE_PW, pw={"references": ["each.value"]}),
                                         "for_each_expression": {"constant_value": {"a": SECRET}}}}}, True,
                 id="child-given-each-value"),
    pytest.param({"module_calls": {"c": {**_call(SENSITIVE_PW, pw={"references": ["each.key"]}),
                                         "for_each_expression": {"constant_value": [SECRET]}}}}, True,
                 id="child-given-each-key-of-a-set"),
    pytest.param({"variables": {"m": {}},
                  "module_calls": {"c": {**_call(SENSITIVE_PW, pw={"references": ["each.value"]}),
                                         "for_each_expression": {"references": ["var.m"]}}}}, True,
                 id="child-given-each-value-of-the-roots-variable"),
    pytest.param({"variables": {"v": {}},
                  "module_calls": {"c": {**_call(SENSITIVE_PW, pw={"references": ["each.key"]}),
                                         "for_each_expression": {"references": ["var.v"]}}}}, True,
                 id="child-given-each-key-of-a-set-made-of-the-roots-variable"),
    pytest.param({"module_calls": {"c": _call({"variables": {"plain": _variable(None)}, "module_calls": {
        "g": _call(SENSITIVE_PW, pw={"references": ["var.plain"]})}}, plain={"constant_value": SECRET})}}, True,
                 id="grandchild-given-a-plain-variable-of-the-child"),
    pytest.param({"module_calls": {"c": _call({"variables": {"t": _variable(None)}, "outputs": {"n": {
        "sensitive": True, "expression": {"references": ["var.t"]}}}}, t={"constant_value": SECRET})}}, True,
                 id="child-output-of-its-variable"),
    pytest.param({"module_calls": {"c": {**_call({"variables": {"pw": _variable(None)}}, pw={"references": ["each.value"]}),
                                         "for_each_expression": {"constant_value": {"a": SECRET}}}}}, False,
                 id="child-given-each-value-to-a-plain-variable-is-shown"),
    pytest.param({"module_calls": {"c": _call({"outputs": {"n": {"expression": {"constant_value": SECRET}}}})}},
                 False, id="child-output-not-sensitive-is-shown"),
    pytest.param({"module_calls": {"c": _call({"variables": {"pw": _variable(None, default=SECRET)}})}}, False,
                 id="child-variable-not-sensitive-is-shown"),
    pytest.param({"module_calls": {"c": _call({"variables": {"pw": _variable(False)}}, pw={"constant_value": SECRET})}},
                 False, id="child-constant-to-a-plain-variable-is-shown"),
]
SCRUBBED = (
    'ExpectResourceAction: null_resource.b["(sensitive)"]: expected Destroy, got action(s): [create]'
)
SHOWN = f'ExpectResourceAction: null_resource.b["{SECRET}"]: expected Destroy, got action(s): [create]'


@pytest.mark.parametrize(("root_module", "secret"), CASES)
def test_a_child_modules_sensitive_variable_is_a_secret_of_the_plan(root_module: dict[str, Any], secret: bool) -> None:
    plan = Plan.from_dict(_plan(root_module))
    assert (SECRET in plan.secrets) is secret
    with pytest.raises(PlanCheckError) as caught:
        assert_plan(plan, ExpectResourceAction(f'null_resource.b["{SECRET}"]', ResourceAction.Destroy))
    assert str(caught.value) == (SCRUBBED if secret else SHOWN)


@pytest.mark.parametrize(("root_module", "secret"), CASES)
@pytest.mark.parametrize("output", ["text", "json", "sarif"])
def test_the_command_line_never_shows_a_child_modules_sensitive_variable(
    tmp_path: Path, root_module: dict[str, Any], secret: bool, output: str
) -> None:
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(_plan(root_module)), encoding="utf-8")
    code, out, err = clirun.cli(str(path), "--empty", "--format", output)
    assert code == 1, err
    assert (SECRET in out + err) is not secret


def test_a_module_inside_itself_is_walked_once() -> None:
    # A document given as Python values can hold a cycle JSON cannot: from_dict refuses it, naming both ends and no
    # secret, and the walk of the modules, asked of such a document directly, still ends.
    module: dict[str, Any] = {"variables": {"pw": _variable(True, default=SECRET)}}
    module["module_calls"] = {"c": _call(module)}
    with pytest.raises(PlanFormatError) as caught:
        Plan.from_dict(_plan(module))
    assert str(caught.value) == (
        "$.configuration.root_module.module_calls.c.module: expected a JSON value (which holds no cycle), "
        "found a reference back to $.configuration.root_module")
    assert SECRET in collect_plan_secrets(_plan(module))


def test_one_module_shared_by_two_calls_is_walked_for_each() -> None:
    # Python values may share one module's mapping between two calls, each passing its own value: each is a secret.
    child: dict[str, Any] = {"variables": {"pw": _variable(True)}}
    other = "zz-second-call-7h8j9k"
    root = {"module_calls": {"a": _call(child, pw={"constant_value": SECRET}),
                             "b": _call(child, pw={"constant_value": other})}}
    secrets = Plan.from_dict(_plan(root)).secrets
    assert (SECRET in secrets, other in secrets) == (True, True)
