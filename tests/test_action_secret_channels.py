"""A secret planted in an action invocation's configuration (Terraform 1.14+) leaves by no channel.

The planted plan (``planted_secrets.py``) invokes an action whose token is marked in
``config_sensitive``, with a sensitive map whose key is a secret, triggered by a resource whose
``for_each`` key is a sensitive variable; a deferred invocation holds the token too. Every front end
that shows invocations is run on it, failing, in every output format, and everything it writes is
searched for every planted secret. Each row is first run with redaction off (``revealing_sensitive``),
where the secret must show: so a row proves the redaction, not just an absence.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import clirun
import pytest
from planted_secrets import PLANTED, plan_document
from secret_shapes import leaks

from plancheck import (
    ExpectNoActionInvocations,
    Plan,
    PlanCheckError,
    assert_plan,
    revealing_sensitive,
    snapshot,
)

ACT = "action.webhook_send.notify"

CHECKS = f"""\
[[check]]
type = "ExpectKnownActionConfigValue"
address = "{ACT}"
path = "token"
matcher = {{ type = "StringExact", value = "not-it" }}

[[check]]
type = "ExpectKnownActionConfigValue"
address = "{ACT}"
path = "headers"
matcher = {{ type = "MapExact", items = {{}} }}

[[check]]
type = "ExpectUnknownActionConfigValue"
address = "{ACT}"
path = "token"

[[check]]
type = "ExpectSensitiveActionConfigValue"
address = "{ACT}"
path = ""

[[check]]
type = "ExpectNoActionInvocations"

[[check]]
type = "ExpectEmptyPlan"
"""


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "plan.json").write_text(json.dumps(plan_document()), "utf-8")
    (tmp_path / "checks.toml").write_text(CHECKS, "utf-8")
    return tmp_path


def _cli(*argv: str) -> Callable[[Path], str]:
    def run(where: Path) -> str:
        _, out, err = clirun.cli(*(a.replace("{dir}", str(where)) for a in argv))
        written = "".join(p.read_text("utf-8", errors="replace") for p in where.glob("out.*"))
        return out + err + written
    return run


def _snapshot_diff(where: Path) -> str:
    plan = Plan.from_dict(plan_document())
    changed = plan_document()
    changed["action_invocations"][0]["config_values"]["token"] = "act-cfg-other-1"
    return "\n".join(snapshot.diff(plan, Plan.from_dict(changed))) + snapshot.render(plan)


def _assert_plan(where: Path) -> str:
    plan = Plan.from_dict(plan_document())
    try:
        assert_plan(plan, ExpectNoActionInvocations())
    except PlanCheckError as exc:
        return str(exc) + repr(exc) + repr(plan.action_invocations) + repr(plan.deferred_action_invocations)
    raise AssertionError("the check passed")


FORMATS = ["text", "json", "junit", "sarif", "github", "markdown"]
CHANNELS: list[tuple[str, Callable[[Path], str]]] = [
    *((f"checks-{fmt}", _cli("{dir}/plan.json", "-c", "{dir}/checks.toml", "--format", fmt)) for fmt in FORMATS),
    ("checks-report", _cli("{dir}/plan.json", "-c", "{dir}/checks.toml", "--report", "sarif={dir}/out.sarif")),
    ("query-text", _cli("query", "{dir}/plan.json")),
    ("query-json", _cli("query", "{dir}/plan.json", "--format", "json")),
    ("snapshot-cli", _cli("snapshot", "{dir}/plan.json", "{dir}/out.snap", "--update")),
    ("snapshot-diff-and-render", _snapshot_diff),
    ("assert-plan-and-reprs", _assert_plan),
]


@pytest.mark.parametrize(("name", "channel"), CHANNELS, ids=[c[0] for c in CHANNELS])
def test_no_planted_secret_leaves_through_an_action_invocation(name: str, channel: Callable[[Path], str],
                                                               workspace: Path) -> None:
    text = channel(workspace)
    assert "action.webhook" in text  # the channel does show the invocations (markdown escapes the _)
    assert leaks(text, PLANTED) == []


@pytest.mark.parametrize(("name", "channel"), [c for c in CHANNELS if not c[0].startswith("snapshot")],
                         ids=[c[0] for c in CHANNELS if not c[0].startswith("snapshot")])
def test_the_channel_would_show_the_action_secret_without_redaction(name: str, channel: Callable[[Path], str],
                                                                    workspace: Path) -> None:
    with revealing_sensitive(True):
        text = channel(workspace)
    # The checks show the action's token; a listing shows the triggering resource's key (a sensitive variable).
    assert leaks(text, PLANTED) == (["action", "var"] if name.startswith("checks") else ["var"])
