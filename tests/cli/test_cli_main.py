"""The command line in-process (plancheck.cli._run with explicit streams): exit codes, output, redaction."""

from __future__ import annotations

import io
import json
from functools import partial
from pathlib import Path
from typing import Any

import clirun
import jsonschema
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from plancheck import PlanFormatError, load_plan
from plancheck._redact import Secrets
from plancheck.cli._command import run
from plancheck.cli._io import render_json, use_colour

SECRET = "s3cr3t-Planted-Value"
SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "plancheck" / "schemas" / "cli-output.schema.json").read_text("utf-8")
)

VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

PLAN: dict[str, Any] = {
    "format_version": "1.2",
    "terraform_version": "1.0.3",
    "variables": {"db_password": {"value": SECRET}, "greeting": {"value": "hello"}},
    "configuration": {"root_module": {"variables": {"db_password": {"sensitive": True}, "greeting": {}}}},
    "resource_changes": [
        {
            "address": "null_resource.app", "mode": "managed", "type": "null_resource", "name": "app",
            "change": {
                "actions": ["create"], "before": None,
                "after": {"triggers": {"greeting": "hello", "password": SECRET, "replicas": "3"}},
                "after_unknown": {"id": True, "triggers": {}},
                "before_sensitive": False, "after_sensitive": {"triggers": {"password": True}},
            },
        },
        {
            "address": "null_resource.worker[0]", "mode": "managed", "type": "null_resource", "name": "worker",
            "index": 0,
            "change": {
                "actions": ["delete", "create"], "before": {"id": "41", "triggers": {"app_id": "7"}},
                "after": {}, "after_unknown": {"id": True, "triggers": True},
                "before_sensitive": {"triggers": {}}, "after_sensitive": {"triggers": {}},
            },
        },
    ],
    "output_changes": {
        "app_id": {"actions": ["create"], "before": None, "after_unknown": True, "before_sensitive": False,
                   "after_sensitive": False},
        "password": {"actions": ["create"], "before": None, "after": SECRET, "after_unknown": False,
                     "before_sensitive": True, "after_sensitive": True},
    },
}

PASSING_TOML = """
[[check]]
type = "ExpectUnknownValue"
address = "null_resource.app"
path = "id"

[[check]]
type = "ExpectSensitiveValue"
address = "null_resource.app"
path = 'triggers["password"]'

[[check]]
type = "ExpectResourceAction"
address = "null_resource.worker[0]"
action = "ResourceActionDestroyBeforeCreate"

[[check]]
type = "ExpectUnknownValue"
address = "null_resource.worker[0]"
path = 'triggers["app_id"]'

[[check]]
type = "ExpectSensitiveOutputValue"
address = "password"
"""


#: Every run (stdin empty, PATH empty) shows no planted secret.
cli = partial(clirun.cli, never=(SECRET,))


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plan.json").write_text(json.dumps(PLAN), "utf-8")
    (tmp_path / "pass.toml").write_text(PASSING_TOML, "utf-8")
    return tmp_path


def test_all_checks_pass_exit_0_one_line_each(files: Path) -> None:
    r = cli("plan.json", "--checks", "pass.toml")
    assert (r.code, r.err) == (0, "")
    assert r.out.splitlines() == [
        "PASS  ExpectUnknownValue: null_resource.app: id",
        'PASS  ExpectSensitiveValue: null_resource.app: triggers["password"]',
        "PASS  ExpectResourceAction: null_resource.worker[0]",
        'PASS  ExpectUnknownValue: null_resource.worker[0]: triggers["app_id"]',
        "PASS  ExpectSensitiveOutputValue: password",
        "5 checks in plan.json: 5 passed, 0 failed",
    ]
    assert cli("plan.json", "--checks", "pass.toml", "--quiet").out == ""


def test_failures_come_first_with_reasons_redacted_exit_1(files: Path) -> None:
    argv = ["plan.json", "--sensitive", "null_resource.app", 'triggers["greeting"]',
            "--unknown", "null_resource.app", 'triggers["password"]', "--action", "null_resource.app", "create",
            "--unknown", "null_resource.ap", "id"]
    r = cli(*argv)
    assert r.code == 1
    lines = r.out.splitlines()
    assert lines[0].startswith('FAIL  ExpectSensitiveValue: null_resource.app: triggers["greeting"]: ')
    assert lines[1] == ('FAIL  ExpectUnknownValue: null_resource.app: triggers["password"]: '
                        "expected an unknown value, but it is known: (sensitive)")
    assert lines[2].startswith("FAIL  ExpectUnknownValue: null_resource.ap: ")
    assert "null_resource.app" in lines[2]  # the closest address is suggested
    assert lines[3:] == ["PASS  ExpectResourceAction: null_resource.app", "4 checks in plan.json: 1 passed, 3 failed"]
    quiet = cli(*argv, "-q")
    assert (quiet.code, quiet.out.splitlines()) == (1, lines[:3])


def test_json_output_follows_the_schema_in_check_order(files: Path) -> None:
    r = cli("-", "--checks", "pass.toml", "--unknown", "null_resource.app", 'triggers["password"]', "--format", "json",
            stdin=json.dumps(PLAN).encode())
    assert r.code == 1
    doc = r.json()
    assert doc["kind"] == "results"
    assert doc["ok"] is False
    assert doc["plan"] == {"source": "<stdin>", "format_version": "1.2", "terraform_version": "1.0.3",
                           "errored": None, "complete": None, "applyable": None, "partial": False}
    assert doc["summary"] == {"total": 6, "passed": 5, "failed": 1, "warned": 0, "errors": 0, "warnings": 0,
                             "waived": 0, "known": 0}
    assert [(x["origin"], x["status"]) for x in doc["results"]] == [
        ("pass.toml:2 check[0]", "pass"), ("pass.toml:7 check[1]", "pass"), ("pass.toml:12 check[2]", "pass"),
        ("pass.toml:17 check[3]", "pass"), ("pass.toml:22 check[4]", "pass"), ("--unknown #1", "fail"),
    ]
    assert doc["results"][5]["failures"] == [{
        "address": "null_resource.app", "path": 'triggers["password"]',
        "message": "expected an unknown value, but it is known: (sensitive)",
    }]


def test_checks_json_file_works_like_toml(files: Path) -> None:
    import tomllib

    (files / "pass.json").write_text(json.dumps(tomllib.loads(PASSING_TOML)), "utf-8")
    assert cli("plan.json", "--checks", "pass.json").out == cli("plan.json", "--checks", "pass.toml").out


# The loader's own message (its wording is the loader's to pin), shown unchanged.
FROM_LOADER = "<the message of plancheck.load_plan>"
#: An input that does not start as JSON: the loader's message, then what the command reads.
NOT_JSON_HINT = ("; tfplancheck reads a plan file (`terraform plan -out=tfplan`) or its JSON (`terraform show -json "
                 "tfplan`), not Terraform's text output or a configuration")

USAGE_ERRORS = [
    pytest.param(["--checks", "pass.toml"], "usage",
                 "no plan given (a JSON plan, a binary plan file, or - for stdin); see --help", id="no-plan"),
    pytest.param(["plan.json"], "usage",
                 "no checks given: use --checks FILE or flags such as --unknown ADDRESS PATH; see --help", id="no-checks"),
    pytest.param(["plan.json", "--unknown", "a.b"], "usage", "argument --unknown: expected 2 arguments", id="flag-arity"),
    pytest.param(["plan.json", "--bogus"], "usage", "unrecognized arguments: --bogus", id="unknown-option"),
    pytest.param(["missing.json", "--empty"], "plan", "missing.json: cannot read the plan: No such file or directory",
                 id="missing-plan"),
    # The loader's words without their own hint for text that is not JSON (which names load_plan's sources): the
    # command line says what it reads instead, as it did before the loader had one.
    pytest.param(["notjson.json", "--empty"], "plan", "notjson.json: $: expected valid JSON, found invalid JSON: "
                 "Expecting value at line 1 column 1 (character 0)" + NOT_JSON_HINT, id="plan-not-json"),
    pytest.param(["empty.json", "--empty"], "plan",
                 "empty.json: the plan is empty (expected the JSON of `terraform show -json PLANFILE`)", id="empty-plan"),
    pytest.param(["array.json", "--empty"], "plan", FROM_LOADER, id="plan-not-object"),
    pytest.param(["plan.json", "--checks", "bad.toml"], "checks",
                 "bad.toml:4: check[0].path: invalid path 'x[' at offset 2: expected an index or a quoted key, found the end of the text",
                 id="bad-checks-file"),
    pytest.param(["plan.json", "--checks", "none.toml"], "checks", "none.toml: the checks file has no checks",
                 id="no-checks-in-file"),
    pytest.param(["plan.json", "--action", "a.b", "explode"], "checks",
                 "command line: --action #1 action: expected one of NoOp, Create, Read, Update, Destroy, "
                 "DestroyBeforeCreate, CreateBeforeDestroy, Replace, Forget, CreateThenForget, ForgetThenCreate, found \"explode\"",
                 id="bad-flag-value"),
    pytest.param(["binary.tfplan", "--empty"], "terraform",
                 "binary.tfplan is a binary plan; reading it needs terraform or tofu on PATH "
                 "(or --terraform PATH, or $TF_ACC_TERRAFORM_PATH)", id="binary-plan-without-terraform"),
    pytest.param(["binary.tfplan", "--empty", "--terraform", "/nonexistent/terraform"], "terraform",
                 "cannot use Terraform binary /nonexistent/terraform: no such file", id="binary-plan-bad-terraform"),
]


@pytest.mark.parametrize(("argv", "kind", "message"), USAGE_ERRORS)
def test_user_errors_exit_2_with_one_clear_message(files: Path, argv: list[str], kind: str, message: str) -> None:
    (files / "notjson.json").write_text("nope", "utf-8")
    (files / "empty.json").write_text("  \n", "utf-8")
    (files / "array.json").write_text("[]", "utf-8")
    (files / "bad.toml").write_text('[[check]]\ntype = "ExpectUnknownValue"\naddress = "a.b"\npath = "x["\n', "utf-8")
    (files / "none.toml").write_text("# nothing yet\n", "utf-8")
    (files / "binary.tfplan").write_bytes(b"PK\x03\x04binary plan")
    if message.startswith(FROM_LOADER):
        with pytest.raises(PlanFormatError) as info:
            load_plan(argv[0])
        assert str(info.value).startswith(f"{argv[0]}: $")
        message = message.replace(FROM_LOADER, str(info.value), 1)
    r = cli(*argv)
    assert r.code == 2
    assert r.err.splitlines()[0] == f"tfplancheck: error: {message}"
    assert r.out == ""
    as_json = cli(*argv, "--format", "json")
    assert as_json.code == 2
    assert as_json.json()["error"] == {"kind": kind, "message": message}


def test_a_matcher_rejecting_its_arguments_is_a_checks_file_error(files: Path) -> None:
    (files / "re.toml").write_text('[[check]]\ntype = "ExpectKnownValue"\naddress = "null_resource.app"\n'
                                   'path = "id"\nmatcher = { type = "StringRegexp", pattern = "(" }\n', "utf-8")
    r = cli("plan.json", "--checks", "re.toml")
    assert r.code == 2
    assert r.err.startswith("tfplancheck: error: re.toml:5: check[0].matcher: StringRegexp: invalid regular expression")


def test_version_and_help(files: Path) -> None:
    assert cli("--version").out == "tfplancheck 0.1.0\n"
    out, err = io.StringIO(), io.StringIO()
    # --help is printed to the run's own stdout (where a write failure is reported), and run returns.
    assert run(["--help"], stdout=out, stderr=err) == 0
    assert out.getvalue().startswith("usage: tfplancheck ")
    assert "--max-bytes N" in out.getvalue()
    assert err.getvalue() == ""
    query_out = io.StringIO()
    assert run(["query", "--help"], stdout=query_out, stderr=err) == 0
    assert query_out.getvalue().startswith("usage: tfplancheck query ")


def test_list_checks_text_and_json() -> None:
    text = cli("--list-checks").out
    assert "  ExpectUnknownValue(address: string, path: path, deposed: string = null)" in text
    assert "  StringExact(value: string)" in text
    assert text.index("Plan checks") < text.index("Matchers")
    doc = cli("--list-checks", "--format", "json").json()
    names = {c["name"] for c in doc["checks"]}
    assert {"ExpectUnknownValue", "ExpectResourceAction"} <= names
    action = next(c for c in doc["checks"] if c["name"] == "ExpectResourceAction")
    assert [a["name"] for a in action["arguments"]] == ["address", "action", "deposed"]


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("tty", "environ", "choice", "expected"),
    [
        pytest.param(True, {}, "auto", True, id="tty"),
        pytest.param(False, {}, "auto", False, id="pipe"),
        pytest.param(True, {"NO_COLOR": "1"}, "auto", False, id="tty-NO_COLOR"),
        pytest.param(True, {"NO_COLOR": ""}, "auto", True, id="tty-empty-NO_COLOR-ignored"),
        pytest.param(False, {}, "always", True, id="always"),
        pytest.param(True, {}, "never", False, id="never"),
        pytest.param(False, {"NO_COLOR": "1"}, "always", True, id="always-beats-NO_COLOR"),
    ],
)
def test_colour_decision(tty: bool, environ: dict[str, str], choice: str, expected: bool) -> None:
    stream = _Tty() if tty else io.StringIO()
    assert use_colour(stream, environ, choice) is expected


def test_colour_only_when_asked(files: Path) -> None:
    plain = cli("plan.json", "--checks", "pass.toml")
    coloured = cli("plan.json", "--checks", "pass.toml", "--color", "always")
    assert "\x1b[" not in plain.out
    assert coloured.out.startswith("\x1b[32mPASS\x1b[0m  ExpectUnknownValue")
    assert cli("plan.json", "--checks", "pass.toml", "--color", "always", "--format", "json").json()["ok"] is True


QUERIES = [
    pytest.param([], [
        "null_resource.app        create",
        "null_resource.worker[0]  delete, create",
        "output.app_id            create",
        "output.password          create",
    ], id="list"),
    pytest.param(["null_resource.app"], [
        "null_resource.app (after)",
        "  status:    known, with unknown parts",
        "  sensitive: partly",
        '  value:     {"triggers": {"greeting": "hello", "password": (sensitive), "replicas": "3"}, '
        '"id": (known after apply)}',
    ], id="whole-value-unknowns-and-secrets-marked"),
    pytest.param(["null_resource.app", 'triggers["password"]'], [
        'null_resource.app triggers["password"] (after)',
        "  status:    known",
        "  sensitive: yes",
        "  value:     (sensitive)",
    ], id="sensitive-path"),
    pytest.param(["null_resource.worker[0]", 'triggers["app_id"]'], [
        'null_resource.worker[0] triggers["app_id"] (after)',
        "  status:    unknown",
        "  sensitive: no",
        "  value:     (known after apply)",
    ], id="unknown-via-ancestor"),
    pytest.param(["null_resource.worker[0]", 'triggers["app_id"]', "--before"], [
        'null_resource.worker[0] triggers["app_id"] (before)',
        "  status:    known",
        "  sensitive: no",
        '  value:     "7"',
    ], id="before"),
    pytest.param(["null_resource.app", 'triggers["nope"]'], [
        'null_resource.app triggers["nope"] (after)',
        '  status:    absent (no key "nope" in an object with 3 keys at triggers)',
        "  sensitive: no",
    ], id="absent-with-reason"),
    pytest.param(["output.password"], [
        "output.password (after)",
        "  status:    known",
        "  sensitive: yes",
        "  value:     (sensitive)",
    ], id="sensitive-output"),
]


@pytest.mark.parametrize(("args", "lines"), QUERIES)
def test_query_text(files: Path, args: list[str], lines: list[str]) -> None:
    r = cli("query", "plan.json", *args)
    assert (r.code, r.err) == (0, "")
    assert r.out.splitlines() == lines


def test_query_json_and_errors(files: Path) -> None:
    doc = cli("query", "plan.json", "null_resource.app", 'triggers["password"]', "--format", "json").json()
    assert (doc["kind"], doc["status"], doc["sensitive"], doc["value"]) == ("value", "known", True, "(sensitive)")
    listing = cli("query", "-", "--format", "json", stdin=json.dumps(PLAN).encode()).json()
    assert listing["resource_changes"][1] == {"address": "null_resource.worker[0]", "actions": ["delete", "create"]}
    missing = cli("query", "plan.json", "null_resource.apq")
    assert (missing.code, missing.err) == (
        2, "tfplancheck: error: resource 'null_resource.apq' is not in the plan; closest: null_resource.app, null_resource.worker[0]\n")
    bad_path = cli("query", "plan.json", "null_resource.app", "a[", "--format", "json")
    assert bad_path.code == 2
    assert bad_path.json()["error"]["kind"] == "usage"


def test_output_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    with pytest.raises(jsonschema.ValidationError):
        VALIDATOR.validate({"schema_version": 1, "kind": "results"})


_json_docs = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=12)),
    lambda kids: st.one_of(st.lists(kids, max_size=4), st.dictionaries(st.text(alphabet="0123456789", max_size=6), kids, max_size=4)),
    max_leaves=10,
)


@settings(max_examples=100, deadline=None)
@given(doc=st.dictionaries(st.sampled_from(["kind", "message", "results"]), _json_docs, min_size=1),
       secret=st.text(alphabet="abcXYZ-", min_size=3, max_size=10), prefix=st.text(max_size=4))
def test_json_output_scrubs_every_string_value_and_keeps_structure(doc: dict[str, Any], secret: str, prefix: str) -> None:
    # Keys are the tool's own (digits here), never scrubbed; every string value is. A short secret is
    # scrubbed where it stands as a whole token (separated by a space here), not inside another word.
    assume(secret not in json.dumps(doc, ensure_ascii=False))
    planted = {**doc, "message": [prefix + " " + secret + " " + prefix, {"deep": secret}]}
    text = render_json(planted, Secrets([secret]))
    assert secret not in text
    reread = json.loads(text)
    assert reread.keys() == planted.keys()
    assert reread["message"][1] == {"deep": "(sensitive)"}
