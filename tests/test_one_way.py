"""One way to do each thing (#26 part 3): one check runner, one plan reader, for every front end.

* Checks run in one place: ``plancheck/_checking/run.py`` (``run_each``, and ``run_checks`` on it).
  A loop elsewhere that calls ``failures``/``outcome``/``CheckPlan``/``CheckState`` on each of
  many checks is a second runner (its own collecting, ordering and scrubbing), and fails here.
* Documents are parsed in one place: the loader (``plancheck._loading``). The front ends (the
  command line, the acceptance runner, the pytest plugin) never parse JSON themselves, except the
  files listed below, which are no plan or state (each with why).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PLANCHECK = ROOT / "plancheck"

#: The one module allowed to loop over checks and run them.
RUNNER = "plancheck/_checking/run.py"
#: What running a check is: its methods, called on each check of a loop.
RUN_METHODS = frozenset({"failures", "outcome", "CheckPlan", "CheckState", "check_query", "CheckQuery", "check_config"})

#: The packages that take documents from users or from Terraform and hand them to checks.
FRONT_ENDS = ("plancheck/cli", "plancheck/acceptance", "plancheck/_plugin")
#: What parses JSON.
PARSERS = frozenset({"json.loads", "json.load", "loads_exact", "json.JSONDecoder", "msgspec.json.decode"})
#: (module, function) -> why it may parse JSON itself: none of these is a plan or a state document.
ALLOWED_PARSES = {
    ("plancheck/cli/_checksfile.py", "<module>"): "the checks file (JSON form), with its own number rules",
    ("plancheck/cli/_waivers.py", "parse_baseline"): "a baseline file (failure identities, no plan data)",
    ("plancheck/acceptance/_statefiles.py", "read_initial_state"):
        "a recorded state file (terraform.tfstate's own format, not show -json), checked by its own rules",
    ("plancheck/acceptance/_statefiles.py", "_plain"): "a JSON round trip of a dict the test gave",
    ("plancheck/acceptance/_diagnostics.py", "read_ui"): "the diagnostics lines of plan/apply -json",
    ("plancheck/acceptance/_diagnostics.py", "read_validate"): "the output of validate -json",
    ("plancheck/acceptance/_statefiles.py", "kept_secrets"): "a kept working directory's secrets and tfvars",
    ("plancheck/acceptance/_statefiles.py", "_read"): "a kept working directory's manifest",
    ("plancheck/_plugin/coverage/report.py", "read_data"): "a coverage data file (pytest --tf-cov-data; no plan data)",
    ("plancheck/_plugin/coverage/scan.py", "_json_lines"):
        "a module's .tf.json file, only for the lines of a sensitive variable's body (withheld in the HTML report)",
}


def _sources(under: str) -> Iterator[tuple[str, ast.AST]]:
    for path in sorted((ROOT / under).rglob("*.py")):
        yield path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def _loop_targets(node: ast.AST) -> set[str]:
    targets: list[ast.expr] = []
    if isinstance(node, (ast.For, ast.AsyncFor)):
        targets = [node.target]
    elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        targets = [g.target for g in node.generators]
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _runs_a_check_of(call: ast.Call, names: set[str]) -> bool:
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in RUN_METHODS:
        return isinstance(func.value, ast.Name) and func.value.id in names
    if isinstance(func, ast.Call) and isinstance(func.func, ast.Name) and func.func.id == "getattr" and func.args:
        first = func.args[0]
        return isinstance(first, ast.Name) and first.id in names
    return False


def check_running_loops(tree: ast.AST) -> list[int]:
    """The lines of the loops of ``tree`` that run each of many checks (call a run method on the loop variable).

    >>> check_running_loops(ast.parse("for c in checks:\\n    found.extend(c.failures(plan))"))
    [1]
    >>> check_running_loops(ast.parse("found = self.failures(plan)\\nfor c in cs:\\n    c.validate()"))
    []
    >>> check_running_loops(ast.parse("[getattr(c, 'CheckPlan')(plan) for c in checks]"))
    [1]
    """
    lines = []
    for node in ast.walk(tree):
        names = _loop_targets(node)
        if names and any(isinstance(n, ast.Call) and _runs_a_check_of(n, names) for n in ast.walk(node)):
            lines.append(getattr(node, "lineno", 0))
    return sorted(lines)


def test_only_the_runner_loops_over_checks() -> None:
    found = {
        f"{module}:{line}"
        for module, tree in _sources("plancheck")
        if module != RUNNER
        for line in check_running_loops(tree)
    }
    assert not found, f"a second check runner (use plancheck._checking.run.run_each): {sorted(found)}"


def _parser_name(call: ast.Call) -> str | None:
    name = ast.unparse(call.func)
    return name if name in PARSERS else None


def json_parses(tree: ast.AST) -> Iterator[tuple[str, int, str]]:
    """(enclosing function or ``<module>``, line, parser) of every JSON parse in ``tree``.

    >>> list(json_parses(ast.parse("import json\\ndef f(t):\\n    return json.loads(t)")))
    [('f', 3, 'json.loads')]
    """
    def visit(node: ast.AST, where: str) -> Iterator[tuple[str, int, str]]:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and where == "<module>" else where
            if isinstance(child, ast.Call):
                parser = _parser_name(child)
                if parser is not None:
                    yield where, child.lineno, parser
            yield from visit(child, inner)

    yield from visit(tree, "<module>")


@pytest.mark.parametrize("package", FRONT_ENDS)
def test_front_ends_parse_no_plan_or_state_json_themselves(package: str) -> None:
    unlisted = [
        f"{module}:{line} {parser} in {where}"
        for module, tree in _sources(package)
        for where, line, parser in json_parses(tree)
        if (module, where) not in ALLOWED_PARSES and (module, "<any>") not in ALLOWED_PARSES
    ]
    assert not unlisted, (
        "a front end parses JSON itself: read plans and states with the loader (load_plan, Plan.from_json, "
        f"State.from_json; a binary plan through plancheck._terraform.planfile.plan_json first), or list a non-document file: {unlisted}"
    )


def test_every_allowed_parse_still_exists() -> None:
    # A stale entry would let a new parse in the same function pass unseen.
    present = {
        (module, where)
        for package in FRONT_ENDS
        for module, tree in _sources(package)
        for where, _, _ in json_parses(tree)
    }
    stale = [key for key in ALLOWED_PARSES if key[1] != "<any>" and key not in present]
    assert not stale


@pytest.mark.parametrize(
    ("module", "reader"),
    [
        pytest.param("plancheck/acceptance/_caserun.py", "from_json", id="acceptance-show-json"),
        pytest.param("plancheck/cli/_io.py", "Plan._from_bytes", id="cli"),
        pytest.param("plancheck/_terraform/mock/plan.py", "Plan.from_json", id="cli-mock-plan-and-mock_plan"),
        # The plugin's --tf-plan is plancheck.load_plan_file (plancheck._plugin.cache calls it).
        pytest.param("plancheck/_terraform/planfile.py", "Plan._from_bytes", id="plugin-tf-plan-and-load_plan_file"),
    ],
)
def test_each_front_end_reads_plans_with_the_loader(module: str, reader: str) -> None:
    calls = {ast.unparse(n.func) for n in ast.walk(ast.parse((ROOT / module).read_text("utf-8"))) if isinstance(n, ast.Call)}
    assert any(c == reader or c.endswith("." + reader) for c in calls), calls


def test_binary_plans_are_told_and_shown_in_one_place() -> None:
    # The command line, the plugin and load_plan_file share plancheck._terraform.planfile, which (like load_plan's
    # message for a binary plan) tells a saved plan by _loading.source.is_saved_plan: no second copy of the magic.
    holders = [
        module for module, tree in _sources("plancheck")
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value == b"PK\x03\x04"
    ]
    assert holders == ["plancheck/_loading/source.py"]
