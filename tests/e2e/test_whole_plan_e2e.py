"""Whole-plan checks on plans real Terraform made (the pinned 1.0.3 and the one on PATH).

* The null provider, with a module, ``count``, a ``for_each`` keyed by a sensitive variable's value, a data
  source read during apply: every selector field; the three verdicts (a team known and right, one unknown
  until apply, one wrong) under every ``unknown=`` mode; then a second plan that replaces, deletes and
  leaves alone, for the change-scope checks.
* The example widget provider (served in this process), whose store is changed behind Terraform's back
  between two steps: the refreshed plan's drift, for ExpectNoDrift and ExpectDrift.

Plans are captured by a plan check that keeps them; the checks then run on them here, with their exact text.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from plancheck import (
    ExpectActionCounts,
    ExpectCount,
    ExpectDrift,
    ExpectEachKnownValue,
    ExpectEachNullValue,
    ExpectEachSensitiveValue,
    ExpectEachUnknownValue,
    ExpectNoDestroys,
    ExpectNoDrift,
    ExpectNoReplacements,
    ExpectNoResourceChanges,
    ExpectOnlyOutputChanges,
    Plan,
    PlanCheckError,
    PlanCheckWarning,
    Resources,
)
from plancheck import knownvalue as kv
from plancheck.acceptance import AcceptanceRunner, ConfigPlanChecks, Sensitive, TestCase, TestStep
from tfjsonpath import New

pytestmark = pytest.mark.e2e

SECRET = "wp-e2e-secret-5Kd8"
KEY = "wp-e2e-key-2Nq7"
TEAM = New("triggers").AtMapKey("team")
PLATFORM = kv.StringExact("platform")

ROOT = """
terraform {
  required_providers {
    null = { source = "hashicorp/null", version = "2.1.2" }
  }
}

variable "secret" {
  type      = string
  sensitive = true
}

variable "key" {
  type      = string
  sensitive = true
}

resource "null_resource" "known" {
  triggers = { team = "platform", secret = var.secret }
}

resource "null_resource" "later" {
  triggers = { team = null_resource.known.id }
}

resource "null_resource" "wrong" {
  triggers = { team = "%(wrong)s" }
}

resource "null_resource" "each" {
  for_each = toset(%(each)s)
  triggers = { team = "platform" }
}

data "null_data_source" "read" {
  inputs = { id = null_resource.known.id }
}

module "net" {
  source = "./net"
}

output "team" {
  value = "%(output)s"
}
"""

NET = """
terraform {
  required_providers {
    null = { source = "hashicorp/null", version = "2.1.2" }
  }
}

resource "null_resource" "n" {
  count    = 2
  triggers = { team = "platform" }
}
"""


class Capture:
    """A plan check that keeps every plan it is given."""

    def __init__(self) -> None:
        self.plans: list[Plan] = []

    def CheckPlan(self, plan: Plan) -> None:
        self.plans.append(plan)


def _config(directory: Path, *, wrong: str = "data", each: str = '["a", nonsensitive(var.key)]',
            output: str = "one") -> Path:
    (directory / "net").mkdir(parents=True, exist_ok=True)
    (directory / "main.tf").write_text(ROOT % {"wrong": wrong, "each": each, "output": output}, "utf-8")
    (directory / "net" / "main.tf").write_text(NET, "utf-8")
    return directory


def null_plans(tf_acceptance: AcceptanceRunner, tmp_path: Path) -> tuple[Plan, Plan, Plan]:
    """(the first plan, the plan replacing "wrong" and deleting each["a"], a plan changing only the output)."""
    first, second, third = Capture(), Capture(), Capture()
    variables = {"secret": Sensitive(SECRET), "key": Sensitive(KEY)}
    tf_acceptance.run(TestCase(steps=[
        TestStep(config_directory=str(_config(tmp_path / "one")), variables=variables,
                 config_plan_checks=ConfigPlanChecks(pre_apply=[first])),
        TestStep(config_directory=str(_config(tmp_path / "two", wrong="platform", each="[nonsensitive(var.key)]")),
                 variables=variables, config_plan_checks=ConfigPlanChecks(pre_apply=[second])),
        TestStep(config_directory=str(_config(tmp_path / "three", wrong="platform", each="[nonsensitive(var.key)]",
                                              output="two")),
                 variables=variables, config_plan_checks=ConfigPlanChecks(pre_apply=[third])),
    ]))
    return first.plans[0], second.plans[0], third.plans[0]


def _texts(check: Any, plan: Plan) -> tuple[list[str], list[str]]:
    found, warned = check.outcome(plan)
    texts = [str(f) for f in found], [str(w) for w in warned]
    for text in texts[0] + texts[1]:
        assert SECRET not in text
        assert KEY not in text
    return texts


EACH_KEY = 'null_resource.each["(sensitive)"]'
SELECTED = ["null_resource.each[\"a\"]", EACH_KEY, "null_resource.known", "null_resource.later",
            "null_resource.wrong"]


def test_whole_plan_checks_on_real_plans(tf_acceptance: AcceptanceRunner, tmp_path: Path) -> None:
    # One acceptance case (three plans) per Terraform binary; every check below reads its plans.
    plans = null_plans(tf_acceptance, tmp_path)
    every_selector_field(plans[0])
    for mode, failures, warned in VERDICTS:
        three_verdicts(plans[0], mode, failures, warned)
    the_other_each_checks(plans[0])
    change_scope(plans)
    from_the_command_line(plans[0], tmp_path)


CHECKS_FILE = """
[[check]]
type = "ExpectEachKnownValue"
selector = { type = "null_resource", module = "" }
path = 'triggers["team"]'
matcher = { type = "StringExact", value = "platform" }
unknown = "warn"

[[check]]
type = "ExpectActionCounts"
create = 7
read = 1
"""


def from_the_command_line(plan: Plan, tmp_path: Path) -> None:
    import io
    import json

    from plancheck.cli._command import run

    document = json.loads(json.dumps(dict(plan.raw), default=str))
    (tmp_path / "plan.json").write_text(json.dumps(document), "utf-8")
    (tmp_path / "checks.toml").write_text(CHECKS_FILE, "utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = run([str(tmp_path / "plan.json"), "--checks", str(tmp_path / "checks.toml")], stdout=out, stderr=err,
               environ={"PATH": ""})
    lines = out.getvalue().splitlines()
    assert (code, err.getvalue()) == (1, "")
    assert lines[:2] == [f"FAIL  {HEAD}{FAILED}", f"WARN  {HEAD}{UNKNOWN}"]
    assert lines[-1].endswith(": 1 passed, 1 failed, 1 warning")
    assert SECRET not in out.getvalue()
    assert KEY not in out.getvalue()


def every_selector_field(plan: Plan) -> None:

    def checked(selector: Resources) -> list[str]:
        # Asking for a path nobody has makes every checked resource fail, listed in the message.
        found, _ = _texts(ExpectEachUnknownValue(selector, New("nope")), plan)
        return [part.split(": it is")[0] for part in found[0].split(" failed: ", 1)[1].split("; ")]

    # In address order (the real one: the secret key sorts after "a"), shown redacted.
    assert checked(Resources(type="null_resource", module="")) == SELECTED
    assert checked(Resources(type="null_*", module="module.net")) == ["module.net.null_resource.n[0]",
                                                                      "module.net.null_resource.n[1]"]
    assert checked(Resources(address="module.net.null_resource.n[1]")) == ["module.net.null_resource.n[1]"]
    assert checked(Resources(address="null_resource.each[*]")) == ['null_resource.each["a"]', EACH_KEY]
    assert checked(Resources(mode="data")) == ["data.null_data_source.read"]
    assert checked(Resources(provider="hashicorp/null", action="read")) == ["data.null_data_source.read"]
    assert checked(Resources(action="create", module="module.net")) == ["module.net.null_resource.n[0]",
                                                                        "module.net.null_resource.n[1]"]
    found, _ = _texts(ExpectEachKnownValue(Resources(type="null_resourc"), TEAM, PLATFORM), plan)
    assert found == ["ExpectEachKnownValue: Resources(type='null_resourc'): selects no resource in the plan; closest "
                     "types: null_resource, null_data_source (allow_empty=True on the selector accepts that)"]


ROOT_TEAMS = Resources(type="null_resource", module="")
FAILED = ('1 of 5 failed: null_resource.wrong: expected value "platform" for StringExact check, got: "data"')
# Terraform marks the whole map unknown when one of its values is: the verdict names what is unknown.
UNKNOWN = "1 of 5 unknown until apply: null_resource.later (triggers)"
HEAD = "ExpectEachKnownValue: Resources(type='null_resource', module=''): triggers[\"team\"]: "
VERDICTS = [
    ("fail", [f"{HEAD}{FAILED}; {UNKNOWN}"], []),
    ("warn", [HEAD + FAILED], [HEAD + UNKNOWN]),
    ("pass", [HEAD + FAILED], []),
]


def three_verdicts(plan: Plan, mode: str, failures: list[str], warnings_: list[str]) -> None:
    check = ExpectEachKnownValue(ROOT_TEAMS, TEAM, PLATFORM, unknown=mode)
    assert _texts(check, plan) == (failures, warnings_)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with pytest.raises(PlanCheckError) as info:
            check.CheckPlan(plan)
    assert str(info.value) == failures[0]
    assert [(w.category, str(w.message)) for w in seen] == [(PlanCheckWarning, text) for text in warnings_]


def the_other_each_checks(plan: Plan) -> None:
    assert _texts(ExpectEachUnknownValue(ROOT_TEAMS, New("id")), plan) == ([], [])
    assert _texts(ExpectEachSensitiveValue("null_resource.known", New("triggers").AtMapKey("secret")), plan) == ([], [])
    assert _texts(ExpectEachSensitiveValue("null_resource.known", TEAM), plan) == ([
        "ExpectEachSensitiveValue: Resources(address='null_resource.known'): triggers[\"team\"]: 1 of 1 failed: "
        'null_resource.known: it is not sensitive; it is known: "platform"'], [])
    assert _texts(ExpectEachNullValue(Resources(mode="data"), New("outputs"), unknown="warn"), plan) == ([], [
        "ExpectEachNullValue: Resources(mode='data'): outputs: 1 of 1 unknown until apply: "
        "data.null_data_source.read (outputs)"])
    assert _texts(ExpectCount(Resources(type="null_resource"), 7), plan) == ([], [])


def change_scope(plans: tuple[Plan, Plan, Plan]) -> None:
    first, second, third = plans
    assert _texts(ExpectActionCounts(create=7, read=1, update=0, delete=0, replace=0, noop=0), first) == ([], [])
    assert _texts(ExpectNoDestroys(), first) == ([], [])
    found, _ = _texts(ExpectNoReplacements(), second)
    assert found == [f"ExpectNoReplacements: null_resource.wrong: {_replacement(second)}"]
    found, _ = _texts(ExpectNoDestroys(except_="null_resource.wrong"), second)
    gone = 'null_resource.each["a"]'
    assert found == [f"ExpectNoDestroys: {gone}: expected no destroy, but it is destroyed: action(s) "
                     f"[delete]{_reason(second, gone)}"]
    assert _texts(ExpectNoDestroys(except_=["null_resource.wrong", "null_resource.each[*]"]), second) == ([], [])
    counts, _ = _texts(ExpectActionCounts(replace=0, delete=1), second)
    assert counts == ["ExpectActionCounts: expected 0 to replace, got 1: null_resource.wrong"]
    assert _texts(ExpectNoResourceChanges(), third) == ([], [])
    assert _texts(ExpectOnlyOutputChanges(), third) == ([], [])
    found, _ = _texts(ExpectOnlyOutputChanges(), second)
    assert "ExpectOnlyOutputChanges: null_resource.wrong: expected only output changes, but it has planned action(s): " \
           "[delete create]" in found


def _reason(plan: Plan, address: str) -> str:
    reason = plan.resource_change(address).action_reason  # Terraform 1.2+ says why it plans what it plans
    return f" ({reason})" if reason else ""


def _replacement(plan: Plan) -> str:
    rc = plan.resource_change("null_resource.wrong")
    why = [rc.action_reason] if rc.action_reason else []
    if rc.change.replace_paths:
        why.append("replace paths: " + ", ".join(sorted(p.to_text() for p in rc.change.replace_paths)))
    detail = f" ({'; '.join(why)})" if why else ""
    return f"expected no replacement, but it is replaced: action(s) [delete create]{detail}"


# -- drift: the widget provider's store changed behind Terraform's back --------------------------


WIDGET_CONFIG = """
variable "secret" {
  type      = string
  sensitive = true
}

resource "widget_thing" "t" {
  name        = "alpha"
  description = "first"
  size        = 3
  secret      = var.secret
  tags        = { env = "test" }
}

resource "widget_thing" "u" {
  name = "beta"
}
"""


def test_drift_made_behind_terraforms_back(tf_acceptance: AcceptanceRunner, private_tmp: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "providers"))
    from provider_support import WIDGET, example_module

    widget = example_module()
    providers: list[Any] = []

    def factory() -> Any:
        providers.append(widget.WidgetProvider())
        return providers[-1]

    def drift() -> None:
        store = providers[0].store
        for widget_id in store.ids():
            current = store.get(widget_id)
            if current["name"] == "alpha":
                store.update(widget_id, {**current, "description": "changed behind", "secret": SECRET + "-drifted",
                                         "size": 4, "tags": {"env": "prod"}})

    refreshed, quiet = Capture(), Capture()
    variables = {"secret": Sensitive(SECRET)}
    runner = AcceptanceRunner(tf_acceptance.terraform, tf_acceptance.work_dir, timeout=120, echo=False)
    runner.run(TestCase(providers={WIDGET: factory}, steps=[
        TestStep(config=WIDGET_CONFIG, variables=variables,
                 config_plan_checks=ConfigPlanChecks(post_apply_post_refresh=[quiet])),
        TestStep(pre_config=drift, config=WIDGET_CONFIG, variables=variables, plan_only=True,
                 expect_non_empty_plan=True, config_plan_checks=ConfigPlanChecks(post_apply_post_refresh=[refreshed])),
    ]))
    before, after = quiet.plans[0], refreshed.plans[0]
    assert _texts(ExpectNoDrift(), before) == ([], [])
    # The API bumps the revision of every update: that drifted too.
    drifted = ('ExpectNoDrift: widget_thing.t: expected no drift, but it changed outside Terraform: description: '
               '"first" -> "changed behind"; revision: 1 -> 2; secret: (sensitive) -> (sensitive); size: 3 -> 4; '
               'tags["env"]: "test" -> "prod"')
    assert _texts(ExpectNoDrift(), after) == ([drifted], [])
    assert _texts(ExpectNoDrift("widget_thing.u"), after) == ([], [])
    assert _texts(ExpectNoDrift(Resources(type="widget_thing", action="update")), after) == ([drifted], [])
    assert _texts(ExpectDrift("widget_thing.t"), after) == ([], [])
    assert _texts(ExpectDrift("widget_thing.t", New("tags").AtMapKey("env")), after) == ([], [])
    assert _texts(ExpectDrift("widget_thing.t", New("name")), after) == ([
        "ExpectDrift: widget_thing.t: name: expected drift at name, but it has not drifted there; drifted: "
        'description: "first" -> "changed behind"; revision: 1 -> 2; secret: (sensitive) -> (sensitive); size: 3 -> 4; '
        'tags["env"]: "test" -> "prod"'], [])
    assert _texts(ExpectDrift("widget_thing.u"), after) == ([
        "ExpectDrift: widget_thing.u: expected drift, but it has not drifted; drifted: widget_thing.t"], [])
