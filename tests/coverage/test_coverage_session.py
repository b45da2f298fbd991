"""``pytest --tf-cov`` through real pytest sessions (pytester) on plans of the fixture tree, built in code.

The session's tests plan some items, skip others, assert a subset (by address, by output name, through a
selector) and drive the validation and the check block both ways; its JSON report is pinned whole, the
same under ``-n 2`` and when two shards' data files are combined; the term report and
``--tf-cov-fail-under`` too. A session without ``--tf-cov`` records nothing and imports none of it.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from coverage_support import TREE

from plancheck.cli import run

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")

CONFTEST = f"""
import sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
import pytest
from coverage_support import tree_plan
from plancheck import Plan
from plancheck._documents.met import planned_in


@pytest.fixture
def plan_of(pytestconfig):
    # What a front end that knows the configuration's directory says (the acceptance runner does).
    def make(**kwargs):
        plan = Plan.from_dict(tree_plan(**kwargs), allow_errored=True)
        planned_in(plan, pytestconfig.rootpath / "tree")
        return plan
    return make
"""

TESTS_A = """
import pytest
from plancheck import ExpectKnownValue, ExpectResourceAction, ExpectUnknownOutputValue, ResourceAction
from plancheck import knownvalue as kv
from tfjsonpath import New


def test_web(plan_of, assert_plan):
    assert_plan(plan_of(registry=True),
                ExpectResourceAction("terraform_data.app", ResourceAction.Create),
                ExpectKnownValue("module.net.terraform_data.vpc", New("input"), kv.StringExact("10.0.0.0/16")),
                ExpectUnknownOutputValue("app_id"))


def test_short_name(plan_of):
    plan = plan_of(name="db")  # the validation fails: Terraform writes an errored plan
    assert plan.errored


@pytest.mark.skip(reason="replicas are not tested yet")
def test_replicas(plan_of):
    plan_of(replicas=2)
"""

TESTS_B = """
from plancheck import ExpectEachKnownValue, Resources
from plancheck import knownvalue as kv
from tfjsonpath import New


def test_other_name(plan_of, assert_plan):  # the check block fails
    assert_plan(plan_of(name="api"), ExpectEachKnownValue(Resources(module="module.net"), New("input"), kv.NotNull()))
"""


def _item(address: str, kind: str, planned: bool, actions: list[str] = (), asserted: bool = False,  # type: ignore[assignment]
          paths: list[str] = (), conditions: list[dict[str, Any]] = (), assertable: bool = True,  # type: ignore[assignment]
          ) -> dict[str, Any]:
    return {"kind": kind, "address": address, "planned": planned, "actions": list(actions), "assertable": assertable,
            "asserted": asserted, "asserted_paths": list(paths), "conditions": list(conditions)}


#: What no check can address: counted once, as planned (a variable, a module call, a child's output, a check block).
NA = {"assertable": False}


def _condition(kind: str, passed: bool, failed: bool) -> dict[str, Any]:
    return {"kind": kind, "index": 0, "passed": passed, "failed": failed}


#: The whole JSON report of the session (TESTS_A + TESTS_B). Format "1" counted every item twice: 50, 65, 62.5
#: and 61.11 in total, and no module could reach 100.
EXPECTED: dict[str, Any] = {"format_version": "2", "percent": 84.62, "modules": [
    {"module": "cloudposse/label/null", "percent": 80.0, "conditions_available": True, "items": [
        _item("module.label.output.id", "output", True, **NA),
        _item("module.label.terraform_data.this", "resource", True, ["create"]),
        _item("module.label.var.name", "variable", True, **NA),
        _item("module.label.var.stage", "variable", True, **NA),
    ]},
    {"module": "tree", "percent": 86.67, "conditions_available": True, "items": [
        _item("check.name_is_web", "check", True, conditions=[_condition("assert", True, True)], **NA),
        _item("module.label", "module", True, **NA),
        _item("module.net", "module", True, **NA),
        _item("output.app_id", "output", True, asserted=True),
        _item("terraform_data.app", "resource", True, ["create"], asserted=True),
        _item("terraform_data.spare", "resource", False),
        _item("var.name", "variable", True, conditions=[_condition("validation", True, True)], **NA),
        _item("var.replicas", "variable", True, **NA),
    ]},
    {"module": "tree/modules/net", "percent": 83.33, "conditions_available": True, "items": [
        _item("module.net.output.vpc_id", "output", True, **NA),
        _item("module.net.terraform_data.vpc", "resource", True, ["create"], asserted=True, paths=["input"],
              conditions=[_condition("precondition", True, False)]),
        _item("module.net.var.cidr", "variable", True, **NA),
    ]},
]}

TERM = """\
Terraform coverage: 3 modules
Module                 Items  Planned  Asserted  Conditions  Percent
--------------------------------------------------------------------
cloudposse/label/null      4        4       0/1         0/0   80.00%
tree                       8        7       2/3         4/4   86.67%
tree/modules/net           3        3       1/1         1/2   83.33%
--------------------------------------------------------------------
TOTAL                     15       14       3/5         5/6   84.62%
Missed:
  cloudposse/label/null: not asserted: module.label.terraform_data.this
  tree: not planned: terraform_data.spare
  tree: not asserted: terraform_data.spare
  tree/modules/net: conditions not seen: module.net.terraform_data.vpc precondition[0] failing"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    shutil.copytree(TREE, pytester.path / "tree")
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_a=TESTS_A, test_b=TESTS_B)
    return pytester


def _report(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_json_report_of_a_session(project: pytest.Pytester) -> None:
    result = project.runpytest("--tf-cov", "--tf-cov-report=json:cov/tf.json", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=3, skipped=1)
    assert _report(project.path / "cov" / "tf.json") == EXPECTED


def test_term_report(project: pytest.Pytester) -> None:
    result = project.runpytest("--tf-cov", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=3, skipped=1)
    text = result.stdout.str()
    start = text.index("Terraform coverage: 3 modules")
    assert text[start:start + len(TERM) + 1].rstrip("\n") == TERM


def test_under_xdist_workers_data_is_combined_once(project: pytest.Pytester) -> None:
    pytest.importorskip("xdist")
    result = project.runpytest_subprocess("-n", "2", "--tf-cov", "--tf-cov-report=json:tf.json", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=3, skipped=1)
    assert _report(project.path / "tf.json") == EXPECTED


def test_two_shards_combined_equal_one_run(project: pytest.Pytester, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for shard in ("a", "b"):
        result = project.runpytest(
            "--tf-cov", "--tf-cov-report=term", f"--tf-cov-data=shard-{shard}.tfcov", f"test_{shard}.py",
            "-p", "no:cacheprovider",
        )
        assert result.ret == 0
    reports = []
    for order in (["shard-a.tfcov", "shard-b.tfcov"], ["shard-b.tfcov", "shard-a.tfcov"]):
        out, err = _streams()
        target = tmp_path / f"{order[0]}.json"
        code = run(["coverage", "combine", *(str(project.path / name) for name in order), "--report", f"json:{target}"],
                   stdout=out, stderr=err)
        assert (code, err.getvalue()) == (0, "")
        reports.append(_report(target))
    assert reports[0] == reports[1] == EXPECTED
    # Elsewhere, the HTML report finds the modules' files below --rootdir.
    monkeypatch.chdir(tmp_path)
    out, err = _streams()
    shards = [str(project.path / "shard-a.tfcov"), str(project.path / "shard-b.tfcov")]
    assert run(["coverage", "combine", *shards, "--report", "html:h", "--rootdir", str(project.path)],
               stdout=out, stderr=err) == 0
    assert 'class="line missed" id="main.tf-21"' in (tmp_path / "h" / "tree.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(("minimum", "status", "verdict"), [
    pytest.param("84.62", 0, None, id="at"),
    pytest.param("84.7", 1, "Terraform coverage failure: total of 84.62% is less than --tf-cov-fail-under=84.7%",
                 id="under"),
])
def test_fail_under(project: pytest.Pytester, minimum: str, status: int, verdict: str | None) -> None:
    result = project.runpytest("--tf-cov", f"--tf-cov-fail-under={minimum}", "-p", "no:cacheprovider")
    assert result.ret == status
    lines = [line for line in result.stdout.lines if "Terraform coverage failure" in line]
    assert lines == ([] if verdict is None else [verdict])


@pytest.mark.parametrize(("option", "problem"), [
    pytest.param("--tf-cov-data=tree/main.tf/shard.tfcov", "tree/main.tf: Not a directory", id="data-file"),
    pytest.param("--tf-cov-report=html:tree/main.tf", "tree/main.tf: Not a directory", id="html-report"),
    # A write that fails after its file opened (a full disk) said "(None: No space left on device)".
    pytest.param("--tf-cov-data=/dev/full", "/dev/full: No space left on device", id="data-file-on-a-full-disk",
                 marks=pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")),
    pytest.param("--tf-cov-report=json:/dev/full", "/dev/full: No space left on device", id="json-report-on-a-full-disk",
                 marks=pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")),
])
def test_an_unwritable_report_is_named(project: pytest.Pytester, option: str, problem: str) -> None:
    # It said only "a coverage report could not be written (File exists)": which one, the user had to guess.
    result = project.runpytest("--tf-cov", option, "-p", "no:cacheprovider")
    lines = [line for line in result.stdout.lines if "could not be written" in line]
    assert lines == [f"Terraform coverage: a coverage report could not be written ({project.path / problem})"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_an_unwritable_report_keeps_no_other_from_being_written(project: pytest.Pytester) -> None:
    # The data file and every report were written in one try: the first that failed stopped the rest, unsaid.
    result = project.runpytest("--tf-cov", "--tf-cov-report=json:/dev/full", "--tf-cov-report=json:after.json",
                               "--tf-cov-report=html:after-html", "--tf-cov-data=tree/main.tf/shard.tfcov", "-p",
                               "no:cacheprovider")
    problems = [line for line in result.stdout.lines if "could not be written" in line]
    written = [line for line in result.stdout.lines if line.startswith("Terraform coverage report written to")]
    assert (problems, written, (project.path / "after-html" / "index.html").is_file()) == (
        [f"Terraform coverage: a coverage report could not be written ({project.path / 'tree/main.tf'}: Not a directory)",
         "Terraform coverage: a coverage report could not be written (/dev/full: No space left on device)"],
        [f"Terraform coverage report written to {project.path / 'after.json'}",
         f"Terraform coverage report written to {project.path / 'after-html'}"],
        True,
    )
    assert _report(project.path / "after.json") == EXPECTED


def test_without_tf_cov_nothing_is_recorded(project: pytest.Pytester) -> None:
    project.makepyfile(test_z="""
import sys
def test_nothing_imported():
    assert not [name for name in sys.modules if name.startswith("plancheck._plugin.coverage")]
""")
    result = project.runpytest_subprocess("-p", "no:cacheprovider")  # its own sys.modules
    result.assert_outcomes(passed=4, skipped=1)
    assert "Terraform coverage" not in result.stdout.str()


@pytest.mark.parametrize(("option", "message"), [
    pytest.param("--tf-cov-report=xml", "ERROR: coverage report 'xml': expected term, json:PATH or html:DIR", id="kind"),
    pytest.param("--tf-cov-report=json", "ERROR: coverage report 'json': expected term, json:PATH or html:DIR",
                 id="json-without-path"),
    pytest.param("--tf-cov-report=term:x", "ERROR: coverage report 'term:x': expected term, json:PATH or html:DIR",
                 id="term-with-path"),
])
def test_bad_report_is_a_usage_error(project: pytest.Pytester, option: str, message: str) -> None:
    result = project.runpytest("--tf-cov", option, "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert message in result.stderr.lines


@pytest.mark.parametrize(("options", "message"), [
    # The JSON report replaced the data file (or the data file the report): `coverage combine` then read a report,
    # "$.format: expected ...". The command line's `coverage combine --report ... --data-file ...` refuses the same.
    pytest.param(["--tf-cov-report=json:out/tf.json", "--tf-cov-data=out/tf.json"],
                 "ERROR: --tf-cov-report out/tf.json: the file is written by --tf-cov-data too", id="report-over-data"),
    pytest.param(["--tf-cov-report=html:out", "--tf-cov-data=./out"],
                 "ERROR: --tf-cov-report out: the file is written by --tf-cov-data too", id="html-over-data"),
    pytest.param(["--tf-cov-report=json:tf.json", "--tf-cov-report=html:tf.json"],
                 "ERROR: --tf-cov-report tf.json: the file is named by another --tf-cov-report too", id="report-twice"),
])
def test_reports_that_would_replace_each_other_are_a_usage_error(
    project: pytest.Pytester, options: list[str], message: str
) -> None:
    result = project.runpytest("--tf-cov", *options, "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert message in result.stderr.lines
    assert not (project.path / "out").exists()
    assert not (project.path / "tf.json").exists()


def _streams() -> tuple[Any, Any]:
    import io

    return io.StringIO(), io.StringIO()


assert sys.version_info >= (3, 11)


SECRET_TESTS = """
import sys
sys.path.insert(0, %r)
from planted_secrets import SECRET_VAR, plan_document
from plancheck import ExpectEachKnownValue, ExpectKnownValue, Plan, Resources
from plancheck import knownvalue as kv
from tfjsonpath import New


def test_secret_plan(assert_plan):
    document = plan_document()
    root = document.setdefault("configuration", {}).setdefault("root_module", {})
    root["resources"] = [{"address": f"{c['type']}.{c['name']}", "mode": c["mode"], "type": c["type"], "name": c["name"]}
                         for c in document["resource_changes"]]
    # A condition's message may quote a secret: no report says messages.
    document["checks"] = [{"address": {"kind": "var", "name": "db_password", "to_display": "var.db_password"},
                           "status": "fail", "instances": [{"address": {"to_display": "var.db_password"},
                           "status": "fail", "problems": [{"message": "rejected " + SECRET_VAR}]}]}]
    assert_plan(Plan.from_dict(document),
                ExpectKnownValue("aws_db_instance.db", New("tags").AtMapKey(SECRET_VAR), kv.StringExact("key-is-secret")),
                ExpectEachKnownValue(Resources(type="terraform_data"), New("input"), kv.NotNull()))
"""


def test_no_planted_secret_in_any_report(pytester: pytest.Pytester) -> None:
    tests_dir = str(Path(__file__).resolve().parents[1])
    sys.path.insert(0, tests_dir)
    try:
        from planted_secrets import PLANTED
    finally:
        sys.path.remove(tests_dir)
    pytester.makepyfile(test_secret=SECRET_TESTS % tests_dir)
    result = pytester.runpytest("--tf-cov", "--tf-cov-report=term", "--tf-cov-report=json:tf.json",
                                "--tf-cov-report=html:html", "--tf-cov-data=tf.data", "--junitxml=junit.xml",
                                "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    report = _report(pytester.path / "tf.json")
    db = next(i for i in report["modules"][0]["items"] if i["address"] == "aws_db_instance.db")
    assert db["asserted_paths"] == ['tags["(sensitive)"]']
    texts = {"stdout": result.stdout.str() + result.stderr.str(),
             **{name: (pytester.path / name).read_text(encoding="utf-8") for name in ("tf.json", "tf.data", "junit.xml")},
             **{f"html/{p.name}": p.read_text(encoding="utf-8") for p in (pytester.path / "html").iterdir()}}
    leaks = sorted((where, name) for where, text in texts.items() for name, secret in PLANTED.items() if secret in text)
    assert leaks == []


SHARED_TESTS = """
import pytest
from plancheck import ExpectResourceAction, ExpectUnknownOutputValue, ResourceAction


@pytest.fixture(scope="module")
def plan_of_module(pytestconfig):
    from coverage_support import tree_plan
    from plancheck import Plan
    from plancheck._documents.met import planned_in

    plan = Plan.from_dict(tree_plan())
    planned_in(plan, pytestconfig.rootpath / "tree")
    return plan


def test_first(plan_of_module, assert_plan):
    assert_plan(plan_of_module, ExpectResourceAction("terraform_data.app", ResourceAction.Create))


def test_second(plan_of_module, assert_plan):  # a later test checks the same plan: still the tree's
    assert_plan(plan_of_module, ExpectUnknownOutputValue("app_id"))
"""


def test_a_plan_checked_in_several_tests_stays_its_modules(pytester: pytest.Pytester) -> None:
    shutil.copytree(TREE, pytester.path / "tree")
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_shared=SHARED_TESTS)
    result = pytester.runpytest("--tf-cov", "--tf-cov-report=json:tf.json", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    report = _report(pytester.path / "tf.json")
    assert [m["module"] for m in report["modules"]] == ["tree", "tree/modules/net"]
    tree = {i["address"]: i["asserted"] for i in report["modules"][0]["items"]}
    assert (tree["terraform_data.app"], tree["output.app_id"]) == (True, True)


PICKLED_TESTS = """
import pickle

from plancheck import ExpectResourceAction, ExpectUnknownOutputValue, ResourceAction


def test_pickled(plan_of, assert_plan):  # as a cache or another process would hand the plan back
    plan = pickle.loads(pickle.dumps(plan_of()))
    assert_plan(plan, ExpectResourceAction("terraform_data.app", ResourceAction.Create),
                ExpectUnknownOutputValue("app_id"))
"""


@pytest.mark.parametrize("options", [pytest.param((), id="in-process"), pytest.param(("-n", "2"), id="xdist")])
def test_a_plan_back_from_its_pickle_stays_its_modules(pytester: pytest.Pytester, options: tuple[str, ...]) -> None:
    """A plan loaded from its pickle was filed under "(unknown directory)": the directory was known of the plan
    pickled only. Its asserts count for the tree, in a worker of xdist as in the session's own process."""
    if options:
        pytest.importorskip("xdist")
    shutil.copytree(TREE, pytester.path / "tree")
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_pickled=PICKLED_TESTS)
    run = pytester.runpytest_subprocess if options else pytester.runpytest
    result = run(*options, "--tf-cov", "--tf-cov-report=json:tf.json", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    report = _report(pytester.path / "tf.json")
    assert [m["module"] for m in report["modules"]] == ["tree", "tree/modules/net"]
    tree = {i["address"]: i["asserted"] for i in report["modules"][0]["items"]}
    assert (tree["terraform_data.app"], tree["output.app_id"]) == (True, True)
