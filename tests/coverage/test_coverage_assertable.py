"""What no plan check can address counts once: a variable, a module call, a child module's output, a ``check``
block, and a data source read while planning. Before, every item counted twice (planned and asserted), so a module
declaring any of them could never reach 100% and ``--tf-cov-fail-under`` was guesswork.

Pinned: which kind is assertable (from a plan built in code), the term table's ``Asserted`` (asserted of
assertable) and its "Missed:" lines, a module of a variable and a resource fully asserted at 100.00% through a
real session and ``--tf-cov-fail-under=100``, and a data file written before the change combined to the new figures.
"""

from __future__ import annotations

import functools
import io
import json
from pathlib import Path
from typing import Any

import pytest

from plancheck import Plan
from plancheck._plugin.coverage.data import CoverageData
from plancheck._plugin.coverage.report import json_report, term_lines
from plancheck.cli import run


def _change(address: str, actions: list[str], mode: str = "managed", module: str | None = None) -> dict[str, Any]:
    type_, name = address.removeprefix("data.").split(".")
    entry: dict[str, Any] = {"address": f"{module}.{address}" if module else address, "mode": mode, "type": type_,
                             "name": name, "change": {"actions": actions, "before": None, "after": {}}}
    if module:
        entry["module_address"] = module
    return entry


def _declared(type_: str, name: str, mode: str = "managed") -> dict[str, Any]:
    return {"address": f"{'data.' if mode == 'data' else ''}{type_}.{name}", "mode": mode, "type": type_, "name": name}


#: A plan of every kind of item: a data source read while planning (planned values only), one read at apply (a
#: resource change), one never planned; a root output and a child's; a variable, a module call, a check block.
PLAN: dict[str, Any] = {
    "format_version": "1.2", "terraform_version": "1.11.4",
    "configuration": {"root_module": {
        "resources": [_declared("t", "a"), _declared("t", "read", "data"), _declared("t", "later", "data"),
                      _declared("t", "never", "data")],
        "outputs": {"o": {}}, "variables": {"v": {}},
        "module_calls": {"m": {"source": "./m", "module": {"resources": [_declared("t", "b")], "outputs": {"co": {}}}}},
    }},
    "resource_changes": [_change("t.a", ["create"]), _change("data.t.later", ["read"], "data"),
                         _change("t.b", ["create"], module="module.m")],
    "planned_values": {"root_module": {"resources": [{"address": "data.t.read", "mode": "data", "type": "t",
                                                       "name": "read"}]}},
    "output_changes": {"o": {"actions": ["create"]}},
    "checks": [{"address": {"kind": "check", "name": "c", "to_display": "check.c"}, "status": "pass",
                "instances": [{"address": {"to_display": "check.c"}, "status": "pass"}]}],
}


#: Resource checks given the address of what is no resource (they fail: no resource change has it).
MISADDRESSED = [("resource", "var.v", None), ("resource", "module.m.output.co", None), ("resource", "check.c", None),
                ("resource", "module.m", None)]


@functools.cache
def _report() -> tuple[dict[str, Any], tuple[str, ...]]:
    data = CoverageData()
    data.add_plan(Plan.from_dict(PLAN), None, Path("."), MISADDRESSED)
    return json_report(data), tuple(term_lines(data))


@pytest.mark.parametrize(("address", "kind", "planned", "assertable"), [
    pytest.param("t.a", "resource", True, True, id="managed-resource"),
    pytest.param("data.t.later", "data", True, True, id="data-read-at-apply"),
    pytest.param("data.t.never", "data", False, True, id="data-never-planned"),
    pytest.param("data.t.read", "data", True, False, id="data-read-while-planning"),
    pytest.param("output.o", "output", True, True, id="root-output"),
    pytest.param("module.m.output.co", "output", True, False, id="child-output"),
    pytest.param("module.m.t.b", "resource", True, True, id="child-resource"),
    pytest.param("var.v", "variable", True, False, id="variable"),
    pytest.param("module.m", "module", True, False, id="module-call"),
    pytest.param("check.c", "check", True, False, id="check-block"),
])
def test_which_items_a_check_can_address(address: str, kind: str, planned: bool, assertable: bool) -> None:
    items = {item["address"]: item for module in _report()[0]["modules"] for item in module["items"]}
    item = items[address]
    assert (item["kind"], item["planned"], item["assertable"], item["asserted"]) == (kind, planned, assertable, False)


def test_the_term_table_counts_asserted_of_assertable_and_misses_only_those() -> None:
    assert "\n".join(_report()[1]) == """\
Terraform coverage: 2 modules
Module               Items  Planned  Asserted  Conditions  Percent
------------------------------------------------------------------
(unknown directory)      8        7       0/4         0/0   58.33%
./m                      2        2       0/1         0/0   66.67%
------------------------------------------------------------------
TOTAL                   10        9       0/5         0/0   60.00%
Missed:
  (unknown directory): not planned: data.t.never
  (unknown directory): not asserted: data.t.later, data.t.never, output.o, t.a
  ./m: not asserted: module.m.t.b"""


MAIN_TF = """\
variable "name" {
  type = string
}

resource "terraform_data" "a" {
  input = var.name
}
"""

CONFTEST = """
import pytest
from plancheck import Plan
from plancheck._documents.met import planned_in


@pytest.fixture
def plan(pytestconfig):
    plan = Plan.from_dict({"format_version": "1.2", "terraform_version": "1.11.4", "checks": [],
        "configuration": {"root_module": {"variables": {"name": {}}, "resources": [
            {"address": "terraform_data.a", "mode": "managed", "type": "terraform_data", "name": "a"}]}},
        "resource_changes": [{"address": "terraform_data.a", "mode": "managed", "type": "terraform_data", "name": "a",
                              "change": {"actions": ["create"], "before": None, "after": {"input": "x"}}}]})
    planned_in(plan, pytestconfig.rootpath / "small")
    return plan
"""

TESTS = """
from plancheck import ExpectKnownValue, knownvalue as kv
from tfjsonpath import New


def test_the_resource(plan, assert_plan):
    assert_plan(plan, ExpectKnownValue("terraform_data.a", New("input"), kv.StringExact("x")))
"""

#: Format "1" showed 1 asserted, 75.00%, and "small: not asserted: var.name"; --tf-cov-fail-under=100 failed.
SMALL_TERM = """\
Terraform coverage: 1 module
Module  Items  Planned  Asserted  Conditions  Percent
-----------------------------------------------------
small       2        2       1/1         0/0  100.00%
-----------------------------------------------------
TOTAL       2        2       1/1         0/0  100.00%"""

SMALL_JSON: dict[str, Any] = {"format_version": "2", "percent": 100.0, "modules": [
    {"module": "small", "percent": 100.0, "conditions_available": True, "items": [
        {"kind": "resource", "address": "terraform_data.a", "planned": True, "actions": ["create"], "assertable": True,
         "asserted": True, "asserted_paths": ["input"], "conditions": []},
        {"kind": "variable", "address": "var.name", "planned": True, "actions": [], "assertable": False,
         "asserted": False, "asserted_paths": [], "conditions": []},
    ]},
]}


def test_a_variable_and_a_resource_fully_asserted_reach_100(pytester: pytest.Pytester) -> None:
    (pytester.path / "small").mkdir()
    (pytester.path / "small" / "main.tf").write_text(MAIN_TF, encoding="utf-8")
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_small=TESTS)
    result = pytester.runpytest("--tf-cov", "--tf-cov-report=term", "--tf-cov-report=json:tf.json",
                                "--tf-cov-report=html:html", "--tf-cov-fail-under=100", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert result.ret == 0
    text = result.stdout.str()
    start = text.index("Terraform coverage: 1 module")
    assert text[start:].splitlines()[:6] == SMALL_TERM.splitlines()
    assert "Missed:" not in text
    assert json.loads((pytester.path / "tf.json").read_text(encoding="utf-8")) == SMALL_JSON
    page = (pytester.path / "html" / "small.html").read_text(encoding="utf-8")
    assert page.count('class="line covered"') == 6  # both blocks green (lines 1-3, 5-7): the variable needs no check
    assert 'class="line partial"' not in page


#: A data file of that session as the code before the change wrote it (data version 1, unchanged since): its items
#: carry no word of assertability, which is read from their kind, address and what was seen of them.
OLD_DATA: dict[str, Any] = {"format": "tfplancheck-coverage-data", "version": 1, "modules": {"small": {
    "checks_available": True, "local": True, "scan_errors": [], "withheld": {}, "items": {
        "terraform_data.a": {"actions": ["create"], "asserted": True, "asserted_paths": ["input"], "conditions": [],
                             "failed": [], "kind": "resource", "passed": [], "planned": True},
        "var.name": {"actions": [], "asserted": False, "asserted_paths": [], "conditions": [], "failed": [],
                     "kind": "variable", "passed": [], "planned": True},
    }}}}


#: The same, as a session whose resource check was given the variable's address wrote it: the code before the change
#: marked the variable asserted (a check that found no resource change there). Read as it stood, the module showed
#: "Asserted 2/1" and 200.00%: an item no check can address is asserted by none.
OLD_DATA_MISADDRESSED: dict[str, Any] = json.loads(json.dumps(OLD_DATA))
OLD_DATA_MISADDRESSED["modules"]["small"]["items"]["var.name"].update(asserted=True, asserted_paths=["input"])


@pytest.mark.parametrize("old", [pytest.param(OLD_DATA, id="as-written"),
                                 pytest.param(OLD_DATA_MISADDRESSED, id="variable-marked-asserted")])
def test_a_data_file_from_before_the_change_combines_to_the_new_figures(tmp_path: Path, old: dict[str, Any]) -> None:
    (tmp_path / "small").mkdir()
    (tmp_path / "small" / "main.tf").write_text(MAIN_TF, encoding="utf-8")
    (tmp_path / "old.tfcov").write_text(json.dumps(old, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = run(["coverage", "combine", str(tmp_path / "old.tfcov"), "--report", "term", "--report",
                f"json:{tmp_path / 'tf.json'}", "--rootdir", str(tmp_path), "--fail-under", "100"], stdout=out, stderr=err)
    assert (code, err.getvalue(), out.getvalue().rstrip("\n")) == (0, "", SMALL_TERM)
    assert json.loads((tmp_path / "tf.json").read_text(encoding="utf-8")) == SMALL_JSON
