"""What comes from configuration and the check's own path is never scrubbed; a secret is still scrubbed as a value.

A sensitive input holding common words (``sensitive({tags = {env = "prod", owner = "team"}})``) made
every message blank those words everywhere, also in a resource's name and in the path the user wrote:
``terraform_data.(sensitive)_null: input["(sensitive)"]["(sensitive)"]``. Each failure below is read
where it is built (``str`` of the error), where a whole text is scrubbed again at an exit (the pytest
report hook and the CLI's writers trust what the failure trusts), and from the CLI itself.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from secret_shapes import ALL_SECRETS

from plancheck import CheckFailedError, ExpectKnownValue, Plan, State, assert_plan
from plancheck import knownvalue as kv
from plancheck._plugin.scrub import scrub_report
from plancheck.cli._command import run
from tfjsonpath import New


def _rc(address: str, after: Any, marks: Any, **extra: Any) -> dict[str, Any]:
    kind, _, rest = address.partition(".")
    name = rest.split("[")[0]
    return {"address": address, "mode": "managed", "type": kind, "name": name, **extra,
            "change": {"actions": ["create"], "before": None, "after": after, "after_unknown": {"id": True},
                       "before_sensitive": False, "after_sensitive": marks}}


#: A plan as Terraform writes it for ``input = sensitive({tags = {env = "prod", owner = "team"}})``, a
#: resource named like a secret, one whose name holds a secret, and a for_each key that is one.
PLAN: dict[str, Any] = {
    "format_version": "1.2",
    "terraform_version": "1.11.0",
    "resource_changes": [
        _rc("terraform_data.tags_null", {"input": {"tags": {"env": "prod", "owner": "team"}}}, {"input": True}),
        _rc("terraform_data.tags", {"input": "tags"}, {}),
        _rc("terraform_data.environment", {"input": "production"}, {}),
        _rc('terraform_data.fe["prod"]', {"input": "x"}, {}, index="prod"),
    ],
}

CASES = [
    pytest.param(
        ExpectKnownValue("terraform_data.tags_null", New("input").AtMapKey("tags").AtMapKey("env"), kv.StringExact("staging")),
        'ExpectKnownValue: terraform_data.tags_null: input["tags"]["env"]: expected value (sensitive) for StringExact check,'
        " got: (sensitive)",
        id="issue-example-tags_null",
    ),
    pytest.param(
        ExpectKnownValue("terraform_data.tags_null", New("input"), kv.MapExact({"tags": kv.MapExact({"env": kv.StringExact("x")})})),
        "ExpectKnownValue: terraform_data.tags_null: input: inside the sensitive value: expected 1 element for MapExact"
        " check, got 2 elements: actual value has extra key(s): (sensitive); expected (sensitive), got (sensitive)",
        id="a-key-found-in-the-value-is-scrubbed",
    ),
    pytest.param(
        ExpectKnownValue("terraform_data.tags", New("input"), kv.StringExact("other")),
        # The value "tags" is hidden by value (a secret elsewhere); the expected value, compared with a hidden
        # value, is hidden as well (tests/test_expected_shown.py); the name in the address stays.
        "ExpectKnownValue: terraform_data.tags: input: expected value (sensitive) for StringExact check, got: (sensitive)",
        id="secret-equal-to-a-resource-name-kept-in-the-address-scrubbed-as-a-value",
    ),
    pytest.param(
        ExpectKnownValue("terraform_data.environment", New("input"), kv.StringExact("staging")),
        'ExpectKnownValue: terraform_data.environment: input: expected value "staging" for StringExact check,'
        ' got: "production"',
        id="short-secret-inside-longer-words",
    ),
    pytest.param(
        ExpectKnownValue('terraform_data.fe["prod"]', New("input"), kv.StringExact("y")),
        'ExpectKnownValue: terraform_data.fe["(sensitive)"]: input: expected value "y" for StringExact check, got: "x"',
        id="for_each-key-that-is-a-secret",
    ),
]


def _failure(check: ExpectKnownValue) -> CheckFailedError:
    with pytest.raises(CheckFailedError) as caught:
        assert_plan(Plan.from_dict(PLAN), check)
    return caught.value


@pytest.mark.parametrize(("check", "message"), CASES)
def test_the_message_where_it_is_built(check: ExpectKnownValue, message: str) -> None:
    assert str(_failure(check)) == message


@pytest.mark.parametrize(("check", "message"), CASES)
def test_the_report_hook_scrub_keeps_what_the_failure_trusts(check: ExpectKnownValue, message: str) -> None:
    error = _failure(check)
    from types import SimpleNamespace

    report = SimpleNamespace(longrepr=f"E   plancheck.PlanCheckError: {error}", sections=[])
    # What the plugin's report hook does: the session's secrets, trusting what the raised failure trusts.
    scrub_report(report, Plan.from_dict(PLAN).secrets.trusting(error.trusted))
    assert report.longrepr == f"E   plancheck.PlanCheckError: {message}"


def _cli_check(check: ExpectKnownValue) -> dict[str, Any]:
    matcher = check.matcher
    assert isinstance(matcher, kv.StringExact)
    return {"type": "ExpectKnownValue", "address": check.address, "path": check.path.to_text(),
            "matcher": {"type": "StringExact", "value": matcher.value}}


CLI_CASES = [case for case in CASES if isinstance(case.values[0].matcher, kv.StringExact)]


@pytest.mark.parametrize(("check", "message"), CLI_CASES)
@pytest.mark.parametrize("form", ["text", "json"])
def test_the_cli_output(check: ExpectKnownValue, message: str, form: str, tmp_path: Path,
                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plan.json").write_text(json.dumps(PLAN), "utf-8")
    (tmp_path / "checks.json").write_text(json.dumps({"check": [_cli_check(check)]}), "utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = run(["plan.json", "--checks", "checks.json", "--format", form], stdout=out, stderr=err, environ={"PATH": ""})
    assert code == 1, err.getvalue()
    _, address, rest = message.split(": ", 2)
    if form == "text":
        assert f"{address}: {rest}" in out.getvalue()
    else:
        failure = json.loads(out.getvalue())["results"][0]["failures"][0]
        path, text = rest.split(": ", 1)
        assert (failure["address"], failure["path"], failure["message"]) == (address, path, text)


@pytest.mark.parametrize("name", sorted(ALL_SECRETS))
def test_a_trusted_text_never_keeps_a_secret_shown_as_a_value(name: str) -> None:
    secret = ALL_SECRETS[name]
    plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [
        _rc("terraform_data.a", {"input": secret}, {"input": True})]})
    trusted = plan.secrets.trusting(["terraform_data.a", 'terraform_data.a: input["k"]'])
    text = f'terraform_data.a: input["k"]: got {json.dumps(secret)} and {secret!r}'
    assert trusted.scrub(text) == plan.secrets.scrub(text)
    assert plan.secrets.scrub(text).startswith('terraform_data.a: input["k"]: got ')



@pytest.mark.parametrize(
    ("text", "asked", "shown"),
    [
        pytest.param('t.a: expected "x", got "y"', False, 't.a: expected "x", got "y"', id="no-secret-asks-nothing"),
        pytest.param('t.tags_a: got "tags"', True, 't.tags_a: got "(sensitive)"', id="a-secret-asks-the-names"),
    ],
)
def test_the_documents_names_are_asked_only_when_a_secret_is_found(text: str, asked: bool, shown: str) -> None:
    # A document's trusted names are every address of it: trusting a failure's texts must not walk them all
    # for a message that shows no secret (every failure of a large plan did).
    from plancheck import Secrets

    calls: list[int] = []
    secrets = Secrets(["tags"], lambda: calls.append(1) or ["t.tags_a"])
    trusting = secrets.trusting(["t.a"])
    assert (trusting.scrub(text), bool(calls)) == (shown, asked)


def test_a_union_of_secrets_asks_the_documents_names_only_when_a_secret_is_found() -> None:
    # The CLI's streams scrub with the union of every document's secrets: made for every run, needed rarely.
    from plancheck import Secrets

    calls: list[int] = []
    union = Secrets(["tags"], lambda: calls.append(1) or ["t.tags_a"]) | Secrets(["hunter2"])
    assert (union.scrub("t.a: no secret here"), calls) == ("t.a: no secret here", [])
    assert (union.scrub('t.tags_a: got "tags", hunter2'), calls) == ('t.tags_a: got "(sensitive)", (sensitive)', [1])


_PW_PLAN = {"format_version": "1.2", "variables": {"pw": {"value": "hunter2-long-secret"}},
            "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}}}
_PW_STATE = {"format_version": "1.0", "values": {"outputs": {"pw": {"value": "hunter2-long-secret", "sensitive": True}}}}


@pytest.mark.parametrize(
    "load",
    [
        pytest.param(lambda: Plan.from_dict(_PW_PLAN), id="plan"),
        # A state's collection ran with the collector on (a plan's did not): 77 young collections during that of a
        # 4,000-resource state, 6.5M instructions (fails before: [True] == [False]).
        pytest.param(lambda: State.from_dict(_PW_STATE), id="state"),
    ],
)
def test_a_documents_secrets_and_scanner_are_made_inside_the_collector_pause(
    load: Callable[[], Plan | State], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Building a large plan's scanner makes many objects and no cycle: built at the first scrub, outside any pause,
    # the young collections it set off made a full one due, a visit of the whole parsed plan for nothing. It is built
    # once, with the secrets, while their collection holds the collector off; no scrub builds one again. A state's
    # secrets are collected the same way.
    import gc

    from plancheck import _redact
    from plancheck._documents import sensitive

    built: list[bool] = []
    walked: list[bool] = []
    real, real_walk = _redact._Scanner.__init__, sensitive.collect_marked

    def recording(self: Any, values: Any) -> None:
        built.append(gc.isenabled())
        real(self, values)

    def walking(*args: Any, **kwargs: Any) -> None:
        walked.append(gc.isenabled())
        real_walk(*args, **kwargs)

    monkeypatch.setattr(_redact._Scanner, "__init__", recording)
    monkeypatch.setattr(sensitive, "collect_marked", walking)
    assert gc.isenabled()
    secrets = load().secrets
    assert (built, walked) == ([False], [False])
    assert secrets.scrub("pw hunter2-long-secret") == "pw (sensitive)"
    assert secrets.trusting(["t.b"]).touches("t.b: hunter2-long-secret")
    assert built == [False]
    assert gc.isenabled()


@pytest.mark.parametrize("names", [pytest.param(["t.a"], id="names-given"), pytest.param(lambda: ["t.a"], id="names-asked")])
def test_a_failures_trust_reuses_the_documents_scanner(names: Any) -> None:
    # Each failure scrubs with secrets.trusting(its texts): building the scanner again for each one cost a
    # large plan's failures a tenth of a second apiece. Same strings, same scanner.
    from plancheck import Secrets

    secrets = Secrets(["hunter2-long-secret"], names)
    assert secrets.scrub("pw hunter2-long-secret") == "pw (sensitive)"
    trusting = secrets.trusting(["t.b: x"])
    assert trusting._scanner is secrets._scanner
    assert trusting.scrub("t.b: x hunter2-long-secret") == "t.b: x (sensitive)"


def test_a_union_that_adds_no_string_reuses_the_scanner() -> None:
    # The CLI's streams scrub with every document's secrets joined (most runs: one plan's, with nothing before it).
    from plancheck import Secrets
    from plancheck._redact import NO_SECRETS

    secrets = Secrets(["hunter2-long-secret"], lambda: ["t.a"])
    assert secrets.scrub("pw hunter2-long-secret") == "pw (sensitive)"
    assert (NO_SECRETS | secrets)._scanner is secrets._scanner
    assert (secrets | Secrets(["hunter2-long-secret"]))._scanner is secrets._scanner
    assert (secrets | Secrets(["other-secret"]))._scanner is not secrets._scanner


@pytest.mark.parametrize(
    ("text", "touched"),
    [
        pytest.param("terraform_data.tags: (sensitive, unmarked)", False, id="trusted-then-inside-a-marker"),
        pytest.param("terraform_data.tags: unmarked", True, id="trusted-then-a-secret"),
        pytest.param("(sensitive, unmarked) tags", True, id="inside-a-marker-then-a-secret"),
        pytest.param("terraform_data.tags: no secret", False, id="trusted-only"),
    ],
)
def test_touches_says_what_scrub_does(text: str, touched: bool) -> None:
    # touches() answers with the first span scrub() would replace. When the first span found was kept (a short
    # secret inside a trusted name), the others were asked again without the markers' filter: a secret word
    # inside the library's own marker made touches() say yes where scrub() changed nothing.
    from plancheck import Secrets

    secrets = Secrets(["tags", "unmarked"]).trusting(["terraform_data.tags"])
    assert (secrets.touches(text), secrets.scrub(text) != text) == (touched, touched)


@pytest.mark.parametrize(
    "secrets",
    [pytest.param([], id="a-document-without-secrets"), pytest.param(["hunter2-long-secret"], id="a-document-with-one")],
)
def test_a_failure_trusts_the_same_texts_whatever_its_documents_secrets(secrets: list[str]) -> None:
    # What a failure trusts is what came from the configuration and the check (never from a value): the same
    # for every document. An exit that scrubs with more secrets than the document's (an acceptance run's inputs)
    # keeps the same words in the path the user wrote, whether or not the plan itself held a secret.
    from plancheck import Secrets
    from plancheck._checking.messages import given_by, scrubbed_failure

    check = ExpectKnownValue("terraform_data.a", New("input").AtMapKey("tags"), kv.NotNull())
    with given_by(check):
        failure = scrubbed_failure(Secrets(secrets), "ExpectKnownValue", "terraform_data.a", check.path, "no")
    assert failure.trusted == ("terraform_data.a", 'terraform_data.a: input["tags"]', 'input["tags"]')



UNION_TEXTS = ['t.tags_a: got "tags", hunter2-long-secret, prod', "terraform_data.tags: tags", "prod-x env", "no secret"]


@pytest.mark.parametrize(
    "parts",
    [
        pytest.param([], id="none"),
        pytest.param([(["hunter2-long-secret"], ())], id="one"),
        pytest.param([([], ["terraform_data.tags"]), (["tags"], ())], id="a-part-without-secrets-trusts-too"),
        pytest.param([(["tags"], ["terraform_data.tags"]), (["prod", "hunter2-long-secret"], ["t.tags_a"])],
                     id="two-trusting"),
        pytest.param([(["tags"], lambda: ["t.tags_a"]), (["tags"], ()), (["env"], ["terraform_data.tags"])],
                     id="a-documents-names-and-a-repeat"),
    ],
)
def test_a_union_holds_every_parts_secrets_and_trusts_what_each_trusts(parts: list[Any]) -> None:
    from plancheck import Secrets

    def texts(trusted: Any) -> list[str]:
        return list(trusted() if callable(trusted) else trusted)

    union = Secrets.union([Secrets(values, trusted) for values, trusted in parts])
    one = Secrets([v for values, _ in parts for v in values], [t for _, trusted in parts for t in texts(trusted)])
    assert (union, union.trusted) == (one, one.trusted)
    assert [union.scrub(text) for text in UNION_TEXTS] == [one.scrub(text) for text in UNION_TEXTS]
    if len(parts) == 2:
        first, second = (Secrets(values, trusted) for values, trusted in parts)
        assert [(first | second).scrub(text) for text in UNION_TEXTS] == [one.scrub(text) for text in UNION_TEXTS]

def test_a_union_asks_the_documents_names_only_when_a_secret_is_found() -> None:
    from plancheck import Secrets

    calls: list[int] = []
    union = Secrets.union([Secrets(["tags"], lambda: calls.append(1) or ["t.tags_a"]), Secrets(["hunter2"])])
    assert (union.scrub("t.a: no secret here"), calls) == ("t.a: no secret here", [])
    assert (union.scrub('t.tags_a: got "tags", hunter2'), calls) == ('t.tags_a: got "(sensitive)", (sensitive)', [1])


def test_a_union_that_adds_no_string_is_its_part_or_reuses_its_scanner() -> None:
    # The CLI's streams scrub with every document's secrets joined: most runs, one plan's and the report's trust of it.
    from plancheck import Secrets
    from plancheck._redact import NO_SECRETS

    secrets = Secrets(["hunter2-long-secret"], lambda: ["t.a"])
    assert secrets.scrub("pw hunter2-long-secret") == "pw (sensitive)"
    assert Secrets.union([NO_SECRETS, secrets, Secrets()]) is secrets
    assert Secrets.union([secrets, secrets.trusting(["t.b"])])._scanner is secrets._scanner
    assert Secrets.union([secrets, Secrets(["other-secret"])])._scanner is not secrets._scanner


def test_the_streams_keep_the_names_of_a_document_that_holds_no_secret() -> None:
    # The CLI's streams scrub with every document heard: the names of one without secrets are configuration too,
    # never scrubbed for another's short secret (they were, when a document without secrets was left out).
    from plancheck import Secrets
    from plancheck.cli._io import Io

    plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [_rc("terraform_data.tags", {"x": "y"}, {})]})
    cli = Io(io.StringIO(), io.StringIO(), None, {})
    cli.heard(plan)
    cli.heard(Secrets(["tags"]))
    assert cli.scrub('terraform_data.tags: "tags"') == 'terraform_data.tags: "(sensitive)"'


def _resource(address: str) -> dict[str, Any]:
    return {"address": address, "mode": "managed", "type": "terraform_data", "name": address.split(".")[1]}


#: Every section of a plan that names a resource or an action: the names it shows are configuration, trusted by
#: the plan's secrets (a short secret ``tags`` is kept in ``terraform_data.tags_<section>`` and still scrubbed as a value).
NAMED_IN: list[Any] = [
    pytest.param({"resource_changes": [_rc("terraform_data.tags_rc", {}, {})]}, "terraform_data.tags_rc", id="resource_changes"),
    pytest.param({"resource_drift": [_rc("terraform_data.tags_drift", {}, {})]}, "terraform_data.tags_drift",
                 id="resource_drift"),
    pytest.param({"deferred_changes": [{"reason": "resource_config_unknown",
                                        "resource_change": _rc('terraform_data.tags_deferred["k"]', {}, {})}]},
                 "terraform_data.tags_deferred", id="deferred_changes"),
    pytest.param({"planned_values": {"root_module": {"resources": [_resource("terraform_data.tags_pv")]}}},
                 "terraform_data.tags_pv", id="planned_values"),
    pytest.param({"prior_state": {"values": {"root_module": {"resources": [_resource("terraform_data.tags_prior")]}}}},
                 "terraform_data.tags_prior", id="prior_state"),
    pytest.param({"action_invocations": [{"address": "action.t.tags_action"}]}, "action.t.tags_action",
                 id="action_invocations"),
    pytest.param({"deferred_action_invocations": [{"reason": "resource_config_unknown",
                                                 "action_invocation": {"address": "action.t.tags_da"}}]},
                 "action.t.tags_da", id="deferred_action_invocations"),
]


@pytest.mark.parametrize(("section", "name"), NAMED_IN)
def test_every_section_that_names_a_resource_lends_its_names_to_the_plans_trust(section: dict[str, Any], name: str) -> None:
    document = {"format_version": "1.2", "variables": {"v": {"value": "tags"}},
                "configuration": {"root_module": {"variables": {"v": {"sensitive": True}}}}, **section}
    secrets = Plan.from_dict(document).secrets
    assert name in secrets.trusted
    assert secrets.scrub(f'{name}: got "tags"') == f'{name}: got "(sensitive)"'


def test_a_deferred_resource_listed_in_a_message_keeps_its_name() -> None:
    # ExpectDeferredChange lists the deferred addresses: a deferred resource's name was scrubbed for a short secret.
    from plancheck import DeferredReason, ExpectDeferredChange

    document = {**PLAN, "deferred_changes": [{"reason": "resource_config_unknown",
                                             "resource_change": _rc("terraform_data.team", {}, {})}]}
    with pytest.raises(CheckFailedError) as caught:
        assert_plan(Plan.from_dict(document), ExpectDeferredChange("terraform_data.other", DeferredReason.ResourceConfigUnknown))
    assert str(caught.value) == ("ExpectDeferredChange: terraform_data.other: no deferred changes found for resource;"
                                 " deferred: terraform_data.team")
