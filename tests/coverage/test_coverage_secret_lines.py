"""Lines of a module's files that show a plan's secret are withheld from ``pytest --tf-cov``'s HTML report.

A module (``sec/``, calling ``./child``) holds a distinct secret in each shape a plan marks: a literal inside
``sensitive("...")``, a literal passed to a child's sensitive variable, a sensitive output's literal value and a
literal given to an attribute the provider marks sensitive. The plan (built in code, as ``terraform show -json`` of
Terraform 1.11 prints it) is let go when its test ends, so no secret of it is left to scrub the report with when the
report is written; under ``-n 2`` the controller never had it, and ``coverage combine`` has no plan at all. Every
file written (HTML pages, JSON report, data file) and the session's output are searched for every secret.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from plancheck._documents.sensitive import (
    collect_plan_secrets,
    configuration_may_hold_secrets,
    marks_may_hold_secrets,
)
from plancheck.cli import run

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")

#: One secret per shape (each 8 characters or more: scrubbed wherever it stands).
SECRETS = {
    "sensitive-function": "s3cret-fn-literal-4f1a",
    "child-sensitive-variable": "s3cret-child-var-9c2e",
    "sensitive-output": "s3cret-output-77ab3",
    "provider-sensitive-attribute": "s3cret-provider-d00d",
}
FN, CHILD, OUTPUT, PROVIDER = SECRETS.values()
#: OpenTofu's literal encryption passphrase: no plan holds it, the module's file alone (a secret without a flag).
PASSPHRASE = "hunter2-TOFU25"

MAIN_TF = f"""resource "terraform_data" "fn" {{
  input = sensitive("{FN}")
}}

module "child" {{
  source = "./child"
  token  = "{CHILD}"
}}

output "o" {{
  value     = "{OUTPUT}"
  sensitive = true
}}

resource "terraform_data" "db" {{
  input = "{PROVIDER}"
}}

terraform {{
  encryption {{
    key_provider "pbkdf2" "k" {{
      passphrase = "{PASSPHRASE}"
    }}
  }}
}}
"""
CHILD_TF = """variable "token" {
  type      = string
  sensitive = true
}

resource "terraform_data" "c" {
  input = var.token
}
"""
#: The lines of sec/main.tf that show a secret.
SECRET_LINES = (2, 7, 11, 16, 22)

CONFTEST = f'''
import pytest
from plancheck import Plan
from plancheck._documents.met import planned_in

FN, CHILD, OUTPUT, PROVIDER = {tuple(SECRETS.values())!r}


def _change(address, after, module=None):
    type_, name = address.split(".")
    entry = {{"address": f"{{module}}.{{address}}" if module else address, "mode": "managed", "type": type_,
             "name": name, "provider_name": "terraform.io/builtin/terraform",
             "change": {{"actions": ["create"], "before": None, "after": {{"input": after}},
                        "after_unknown": {{"id": True, "output": True}}, "before_sensitive": False,
                        "after_sensitive": {{"input": True}}}}}}
    if module:
        entry["module_address"] = module
    return entry


def _resource(address):
    type_, name = address.split(".")
    return {{"address": address, "mode": "managed", "type": type_, "name": name,
             "provider_config_key": "terraform", "schema_version": 0}}


def plan_document():
    return {{
        "format_version": "1.2", "terraform_version": "1.11.4",
        "resource_changes": [_change("terraform_data.fn", FN), _change("terraform_data.db", PROVIDER),
                             _change("terraform_data.c", CHILD, "module.child")],
        "output_changes": {{"o": {{"actions": ["create"], "before": None, "after": OUTPUT, "after_unknown": False,
                                 "before_sensitive": False, "after_sensitive": True}}}},
        "configuration": {{"root_module": {{
            "resources": [_resource("terraform_data.fn"), _resource("terraform_data.db")],
            "outputs": {{"o": {{"sensitive": True, "expression": {{"constant_value": OUTPUT}}}}}},
            "module_calls": {{"child": {{"source": "./child", "expressions": {{"token": {{"constant_value": CHILD}}}},
                "module": {{"resources": [_resource("terraform_data.c")],
                            "variables": {{"token": {{"sensitive": True}}}}}}}}}},
        }}}},
    }}


@pytest.fixture
def sec_plan(pytestconfig):
    plan = Plan.from_dict(plan_document())
    planned_in(plan, pytestconfig.rootpath / "sec")
    return plan
'''

TESTS = """
from plancheck import ExpectResourceAction, ResourceAction


def test_one(sec_plan, assert_plan):
    assert_plan(sec_plan, ExpectResourceAction("terraform_data.fn", ResourceAction.Create))


def test_two(sec_plan, assert_plan):
    assert_plan(sec_plan, ExpectResourceAction("terraform_data.db", ResourceAction.Create))
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    (pytester.path / "sec" / "child").mkdir(parents=True)
    (pytester.path / "sec" / "main.tf").write_text(MAIN_TF, encoding="utf-8")
    (pytester.path / "sec" / "child" / "main.tf").write_text(CHILD_TF, encoding="utf-8")
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_sec=TESTS)
    return pytester


def _session(project: pytest.Pytester, *extra: str) -> str:
    result = project.runpytest_subprocess(
        *extra, "--tf-cov", "--tf-cov-report=html:htmlcov", "--tf-cov-report=json:tf.json",
        "--tf-cov-data=tf.data", "-p", "no:cacheprovider",
    )
    result.assert_outcomes(passed=2)
    return result.stdout.str() + result.stderr.str()


def _plain(project: pytest.Pytester) -> str:
    return _session(project)


def _xdist(project: pytest.Pytester) -> str:
    pytest.importorskip("xdist")
    return _session(project, "-n", "2")


def _combine(project: pytest.Pytester) -> str:
    shown = _session(project)
    (project.path / "tf.json").unlink()
    for page in (project.path / "htmlcov").iterdir():
        page.unlink()
    out, err = io.StringIO(), io.StringIO()
    code = run(["coverage", "combine", str(project.path / "tf.data"), "--report", "html:htmlcov",
                "--report", f"json:{project.path / 'tf.json'}", "--rootdir", str(project.path)],
               stdout=out, stderr=err)
    assert (code, err.getvalue()) == (0, "")
    return shown + out.getvalue()


@pytest.mark.parametrize("make", [
    pytest.param(_plain, id="plain-session"),
    pytest.param(_xdist, id="xdist-n2"),
    pytest.param(_combine, id="coverage-combine"),
])
def test_no_secret_of_the_module_files_in_any_report(project: pytest.Pytester, make: object) -> None:
    shown = make(project)  # type: ignore[operator]
    written = {"output": shown}
    for path in [project.path / "tf.json", project.path / "tf.data", *(project.path / "htmlcov").iterdir()]:
        written[path.name] = path.read_text(encoding="utf-8")
    planted = {**SECRETS, "opentofu-encryption-passphrase": PASSPHRASE}
    leaks = sorted((shape, name) for shape, secret in planted.items() for name, text in written.items() if secret in text)
    assert leaks == []
    page = written["sec.html"]
    for line in SECRET_LINES:
        assert f'id="main.tf-{line}"><span class="no">{line}</span>(withheld: a sensitive value)</span>' in page
    assert 'id="main.tf-1"><span class="no">1</span>resource &quot;terraform_data&quot; &quot;fn&quot; {</span>' in page


CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "plans"


def _corpus_plans() -> list[object]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from corpus_cases import corpus_cases

    return corpus_cases(sorted(CORPUS.glob("*.json")) if CORPUS.is_dir() else [], CORPUS, lambda path: path.stem)


@pytest.mark.parametrize("path", _corpus_plans())
def test_a_plan_said_to_hold_no_secret_holds_none(path: Path) -> None:
    """Coverage skips the secrets of a plan whose marks and configuration say it holds none: never one that does."""
    document = json.loads(path.read_text(encoding="utf-8"))
    config = document.get("configuration")
    may = (isinstance(config, dict) and configuration_may_hold_secrets(config)) or marks_may_hold_secrets(document)
    assert may or len(collect_plan_secrets(document)) == 0
