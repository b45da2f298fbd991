"""Configuration checks: messages pinned, every failure reported, secrets never shown."""

from __future__ import annotations

import pathlib
import pickle
from typing import Any

import pytest

from plancheck import knownvalue as kv
from plancheck._errors import CheckFailure, ConfigCheckError
from plancheck.tfconfig import (
    ConfigCheck,
    ExpectDataSource,
    ExpectDataSourceAttribute,
    ExpectDataSourceCount,
    ExpectLocal,
    ExpectModule,
    ExpectNoResource,
    ExpectOutput,
    ExpectProvider,
    ExpectReferences,
    ExpectResource,
    ExpectResourceAttribute,
    ExpectResourceCount,
    ExpectResourceWithProperties,
    ExpectVariable,
    assert_config,
    config_from_dict,
    load_config,
)
from tfjsonpath import New, Path

CONFIG: dict[str, Any] = {
    "variable": {
        "region": {"type": "string", "default": "eu-west-1", "description": "Where"},
        "db_password": {"type": "string", "sensitive": True, "default": "hunter2-secret"},
        "tags": {"type": "map( string )", "nullable": False},
    },
    "locals": {"name": "web-${var.region}", "count": 2},
    "provider": {"aws": [{"region": "${var.region}"}, {"alias": "usw1", "region": "us-west-1"}]},
    "data": {"aws_ami": {"ubuntu": {"most_recent": True, "owners": ["099720109477"]}}},
    "resource": {
        "aws_instance": {
            "web": {
                "ami": "${data.aws_ami.ubuntu.id}",
                "instance_type": "t3.micro",
                "tags": {"Name": "${local.name}", "Team": "core"},
                "user_data": "password=hunter2-secret",
                "depends_on": ["aws_security_group.web"],
                "lifecycle": {"replace_triggered_by": ["aws_security_group.web.id"]},
            },
            "worker": {"ami": "ami-123", "instance_type": "t3.large", "count": "${local.count}"},
        },
        "aws_security_group": {"web": {"name": "web", "ingress": [{"from_port": 443, "to_port": 443}]}},
    },
    "module": {
        "vpc": {
            "source": "terraform-aws-modules/vpc/aws",
            "version": "5.1.0",
            "cidr": "10.0.0.0/16",
            "providers": {"aws": "aws.usw1"},
        }
    },
    "output": {
        "web_ip": {"value": "${aws_instance.web.public_ip}", "description": "IP"},
        "db": {"value": "${var.db_password}", "sensitive": True},
    },
}
CFG = config_from_dict(CONFIG)

PASSING: list[tuple[str, ConfigCheck]] = [
    ("resource", ExpectResource("aws_instance", "web")),
    ("data-source", ExpectDataSource("aws_ami", "ubuntu")),
    ("data-via-mode", ExpectResource("aws_ami", "ubuntu", mode="data")),
    ("no-resource", ExpectNoResource("aws_instance", "db")),
    ("count", ExpectResourceCount("aws_instance", 2)),
    ("data-count", ExpectDataSourceCount("aws_ami", 1)),
    ("attribute-plain", ExpectResourceAttribute("aws_instance", "web", New("instance_type"), "t3.micro")),
    (
        "attribute-check",
        ExpectResourceAttribute(
            "aws_instance", "web", New("tags"), kv.MapPartial({"Team": kv.StringExact("core")})
        ),
    ),
    (
        "attribute-expression",
        ExpectResourceAttribute("aws_instance", "web", New("ami"), "${data.aws_ami.ubuntu.id}"),
    ),
    (
        "attribute-nested-block",
        ExpectResourceAttribute(
            "aws_security_group", "web", New("ingress").AtSliceIndex(0).AtMapKey("from_port"), 443
        ),
    ),
    ("data-attribute", ExpectDataSourceAttribute("aws_ami", "ubuntu", New("owners"), ["099720109477"])),
    ("properties", ExpectResourceWithProperties("aws_instance", {"instance_type": "t3.large"})),
    ("properties-nested", ExpectResourceWithProperties("aws_instance", {"tags": {"Team": "core"}})),
    ("variable", ExpectVariable("region", type="string", default="eu-west-1", description="Where")),
    ("variable-type-spaces", ExpectVariable("tags", type="map(string)", nullable=False)),
    ("variable-sensitive", ExpectVariable("db_password", sensitive=True, default="hunter2-secret")),
    ("variable-type-check", ExpectVariable("tags", type=kv.StringRegexp("^map"))),
    ("output", ExpectOutput("web_ip", description="IP", references=["aws_instance.web"])),
    ("output-sensitive", ExpectOutput("db", sensitive=True, value="${var.db_password}")),
    ("local", ExpectLocal("name", value="web-${var.region}", references=["var.region"])),
    (
        "module",
        ExpectModule(
            "vpc",
            source="terraform-aws-modules/vpc/aws",
            version=kv.StringRegexp(r"^5\."),
            inputs={"cidr": "10.0.0.0/16", "providers": {"aws": "aws.usw1"}},
        ),
    ),
    ("provider-any", ExpectProvider("aws")),
    ("provider-default", ExpectProvider("aws", alias=None, properties={"region": "${var.region}"})),
    ("provider-alias", ExpectProvider("aws", alias="usw1")),
    (
        "references",
        ExpectReferences(
            "aws_instance", "web", contains=["data.aws_ami.ubuntu", "local.name", "aws_security_group.web"]
        ),
    ),
    (
        "references-attribute",
        ExpectReferences("aws_instance", "web", "ami", contains=["data.aws_ami.ubuntu.id"]),
    ),
    (
        "references-lifecycle",
        ExpectReferences("aws_instance", "web", "lifecycle", contains=["aws_security_group.web.id"]),
    ),
    ("references-data", ExpectReferences("aws_ami", "ubuntu", contains=[], mode="data")),
]


@pytest.mark.parametrize("check", [c for _, c in PASSING], ids=[i for i, _ in PASSING])
def test_checks_that_hold(check: ConfigCheck) -> None:
    assert check.failures(CFG) == []
    check.check_config(CFG)
    check.check_config(CONFIG)


FAILING: list[tuple[str, ConfigCheck, str]] = [
    (
        "resource-missing",
        ExpectResource("aws_instance", "wbe"),
        "ExpectResource: aws_instance.wbe: no resource aws_instance.wbe in the configuration; closest: aws_instance.web, "
        "aws_instance.worker",
    ),
    (
        "resource-none-alike",
        ExpectResource("google_compute_instance", "vm"),
        "ExpectResource: google_compute_instance.vm: no resource google_compute_instance.vm in the configuration; "
        "it has 3 other resource(s)",
    ),
    (
        "data-missing",
        ExpectDataSource("aws_ami", "debian"),
        "ExpectDataSource: data.aws_ami.debian: no data source data.aws_ami.debian in the configuration; "
        "closest: data.aws_ami.ubuntu",
    ),
    (
        "no-resource",
        ExpectNoResource("aws_instance", "web"),
        'ExpectNoResource: aws_instance.web: expected no such resource, found one at $.resource["aws_instance"]["web"]',
    ),
    (
        "count",
        ExpectResourceCount("aws_instance", 3),
        "ExpectResourceCount: aws_instance: expected 3 aws_instance resources, found 2: aws_instance.web, "
        "aws_instance.worker",
    ),
    (
        "count-zero-found",
        ExpectResourceCount("aws_s3_bucket", 1),
        "ExpectResourceCount: aws_s3_bucket: expected 1 aws_s3_bucket resources, found 0",
    ),
    (
        "attribute-mismatch",
        ExpectResourceAttribute("aws_instance", "web", New("tags").AtMapKey("Team"), "ops"),
        'ExpectResourceAttribute: aws_instance.web: tags["Team"]: expected value "ops" for StringExact check, '
        'got: "core"',
    ),
    (
        "attribute-missing",
        ExpectResourceAttribute("aws_instance", "web", New("tags").AtMapKey("Owner"), "x"),
        "ExpectResourceAttribute: aws_instance.web: tags[\"Owner\"]: attribute not found: key 'Owner' missing at "
        'step 2 of tags["Owner"]; the map has 2 keys',
    ),
    (
        "attribute-resource-missing",
        ExpectResourceAttribute("aws_instance", "db", New("ami"), "x"),
        "ExpectResourceAttribute: aws_instance.db: ami: no resource aws_instance.db in the configuration; "
        "closest: aws_instance.web, aws_instance.worker",
    ),
    (
        "attribute-deep-check",
        ExpectResourceAttribute(
            "aws_security_group",
            "web",
            New("ingress"),
            kv.ListExact([kv.ObjectPartial({"from_port": kv.NumberExact(80)})]),
        ),
        'ExpectResourceAttribute: aws_security_group.web: ingress[0]["from_port"]: expected value 80 for NumberExact '
        "check, got: 443",
    ),
    (
        "properties",
        ExpectResourceWithProperties("aws_instance", {"instance_type": "m5.large"}),
        "ExpectResourceWithProperties: aws_instance: none of 2 aws_instance resources matches; aws_instance.web: "
        'instance_type: expected value "m5.large" for StringExact check, got: "t3.micro"; aws_instance.worker: '
        'instance_type: expected value "m5.large" for StringExact check, got: "t3.large"',
    ),
    (
        "properties-no-type",
        ExpectResourceWithProperties("aws_instanc", {}),
        "ExpectResourceWithProperties: aws_instanc: the configuration has no aws_instanc resources; closest types: "
        "aws_instance",
    ),
    (
        "variable-missing",
        ExpectVariable("regoin"),
        "ExpectVariable: var.regoin: no variable var.regoin in the configuration; closest: var.region",
    ),
    (
        "variable-type",
        ExpectVariable("region", type="number"),
        'ExpectVariable: var.region: type: type is "string", expected "number"',
    ),
    (
        "variable-no-type",
        ExpectVariable("tags", default={}),
        "ExpectVariable: var.tags: default: variable has no default",
    ),
    (
        "variable-sensitive-default-hidden",
        ExpectVariable("db_password", default="letmein"),
        "ExpectVariable: var.db_password: default: expected value (sensitive) for StringExact check, got: (sensitive)",
    ),
    (
        "variable-nullable",
        ExpectVariable("tags", nullable=True),
        "ExpectVariable: var.tags: nullable is false, expected true",
    ),
    (
        "output-sensitive",
        ExpectOutput("web_ip", sensitive=True),
        "ExpectOutput: output.web_ip: sensitive is false, expected true",
    ),
    (
        "output-references",
        ExpectOutput("web_ip", references=["aws_instance.worker"]),
        "ExpectOutput: output.web_ip: value: expected references to aws_instance.worker; found: "
        "aws_instance.web.public_ip",
    ),
    (
        "output-missing",
        ExpectOutput("web_id"),
        "ExpectOutput: output.web_id: no output output.web_id in the configuration; closest: output.web_ip, output.db",
    ),
    (
        "local-value",
        ExpectLocal("count", value=3),
        "ExpectLocal: local.count: expected value 3 for NumberExact check, got: 2",
    ),
    (
        "local-missing",
        ExpectLocal("nmae"),
        "ExpectLocal: local.nmae: no local value local.nmae in the configuration; closest: local.name, local.count",
    ),
    (
        "module-version",
        ExpectModule("vpc", version="5.2.0"),
        'ExpectModule: module.vpc: version: expected value "5.2.0" for StringExact check, got: "5.1.0"',
    ),
    (
        "module-inputs",
        ExpectModule("vpc", inputs={"cidr": "10.1.0.0/16"}),
        'ExpectModule: module.vpc: cidr: expected value "10.1.0.0/16" for StringExact check, got: "10.0.0.0/16"',
    ),
    (
        "provider-alias",
        ExpectProvider("aws", alias="euw1"),
        "ExpectProvider: provider.aws.euw1: no provider configuration provider.aws.euw1 in the configuration; "
        "closest: provider.aws.usw1, provider.aws",
    ),
    (
        "provider-properties",
        ExpectProvider("aws", properties={"region": "eu-west-1"}),
        'ExpectProvider: provider.aws: provider.aws: region: expected value "eu-west-1" for StringExact check, got: '
        '"${var.region}"; provider.aws.usw1: region: expected value "eu-west-1" for StringExact check, got: '
        '"us-west-1"',
    ),
    (
        "references",
        ExpectReferences("aws_instance", "worker", contains=["local.count", "var.region"]),
        "ExpectReferences: aws_instance.worker: expected references to var.region; found: local.count",
    ),
    (
        "references-attribute",
        ExpectReferences("aws_instance", "web", "instance_type", contains=["var.type"]),
        "ExpectReferences: aws_instance.web: instance_type: expected references to var.type; found: none",
    ),
]


@pytest.mark.parametrize(
    ("check", "message"), [(c, m) for _, c, m in FAILING], ids=[i for i, _, _ in FAILING]
)
def test_checks_that_fail_say_what_was_found(check: ConfigCheck, message: str) -> None:
    with pytest.raises(ConfigCheckError) as info:
        check.check_config(CFG)
    assert str(info.value) == message
    assert isinstance(info.value, AssertionError)


def test_assert_config_reports_every_failure_in_order() -> None:
    with pytest.raises(ConfigCheckError) as info:
        assert_config(
            CONFIG,
            ExpectResource("aws_instance", "web"),
            ExpectResourceCount("aws_instance", 1),
            ExpectVariable("region", type="number", default="x"),
            ExpectOutput("nope"),
        )
    assert [(f.check, f.address) for f in info.value.failures] == [
        ("ExpectResourceCount", "aws_instance"),
        ("ExpectVariable", "var.region"),
        ("ExpectVariable", "var.region"),
        ("ExpectOutput", "output.nope"),
    ]
    assert str(info.value).startswith(
        "4 config checks failed:\n  1. ExpectResourceCount: aws_instance: expected 1"
    )


def test_secrets_never_leave() -> None:
    checks = [
        ExpectResourceAttribute("aws_instance", "web", New("user_data"), "password=other"),
        ExpectVariable("db_password", default=kv.StringRegexp("^x")),
        ExpectResourceWithProperties("aws_instance", {"user_data": "nope"}),
        ExpectOutput("db", value="${var.other}"),
    ]
    with pytest.raises(ConfigCheckError) as info:
        assert_config(CFG, *checks)
    text = str(info.value)
    assert "hunter2-secret" not in text
    assert text.count("(sensitive)") >= 3
    for failure in info.value.failures:
        assert "hunter2-secret" not in repr(failure)


def test_assert_config_refuses_non_checks() -> None:
    with pytest.raises(
        TypeError, match=r"^assert_config: check 1 must be a ConfigCheck, got list; to pass a list"
    ):
        assert_config(CFG, [ExpectResource("a", "b")])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^assert_config expects a plancheck\.tfconfig\.Config"):
        assert_config("main.tf.json", ExpectResource("a", "b"))  # type: ignore[arg-type]


CONSTRUCTOR_ERRORS: list[tuple[str, Any, type[Exception], str]] = [
    (
        "type-not-str",
        lambda: ExpectResource(1, "a"),
        TypeError,
        "ExpectResource: type must be a str, got int",
    ),
    ("empty-name", lambda: ExpectResource("a", ""), ValueError, "ExpectResource: name must not be empty"),
    (
        "bad-mode",
        lambda: ExpectResource("a", "b", mode="x"),
        ValueError,
        "ExpectResource: mode must be 'managed', 'data' or 'ephemeral', got 'x'",
    ),
    # 'unhashable type: list' from the look-up of the mode, naming no check and no argument.
    ("mode-a-list", lambda: ExpectResource("a", "b", mode=["data"]), TypeError, "ExpectResource: mode must be a str, got list"),
    (
        "path-as-text",
        lambda: ExpectResourceAttribute("a", "b", "tags.Name", "x"),
        TypeError,
        "ExpectResourceAttribute: path must be a tfjsonpath.Path, got str (to use text, parse it: "
        "tfjsonpath.Path.parse('tags.Name'))",
    ),
    (
        "negative-count",
        lambda: ExpectResourceCount("a", -1),
        ValueError,
        "ExpectResourceCount: count must be a non-negative int, got -1",
    ),
    (
        "bool-count",
        lambda: ExpectResourceCount("a", True),
        ValueError,
        "ExpectResourceCount: count must be a non-negative int, got True",
    ),
    (
        "non-json-value",
        lambda: ExpectResourceAttribute("a", "b", New("x"), {1, 2}),
        TypeError,
        "ExpectResourceAttribute: expected a knownvalue check or a JSON value; exact: the value at the root is not a "
        "JSON value: non-JSON set",
    ),
    (
        "sensitive-not-bool",
        lambda: ExpectVariable("x", sensitive="yes"),
        TypeError,
        "ExpectVariable: sensitive must be a bool, got str",
    ),
    (
        "contains-str",
        lambda: ExpectReferences("a", "b", contains="var.x"),
        TypeError,
        "ExpectReferences: contains must be a list of str, got str",
    ),
]


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [(b, e, m) for _, b, e, m in CONSTRUCTOR_ERRORS],
    ids=[i for i, *_ in CONSTRUCTOR_ERRORS],
)
def test_bad_arguments_are_refused_at_construction(build: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        build()
    assert str(info.value) == message


def test_checks_are_frozen_hashable_values_with_constructor_reprs() -> None:
    a = ExpectResourceAttribute("aws_instance", "web", New("tags").AtMapKey("Name"), {"x": [1]})
    b = ExpectResourceAttribute("aws_instance", "web", New("tags").AtMapKey("Name"), {"x": [1]})
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b, ExpectResource("aws_instance", "web")}) == 2
    assert a.__eq__(1) is NotImplemented
    with pytest.raises(AttributeError):
        a.name = "db"  # type: ignore[misc]
    assert repr(a) == (
        "ExpectResourceAttribute('aws_instance', 'web', Path(MapStep('tags'), MapStep('Name')), "
        "ObjectExact({'x': ListExact([NumberExact(1)])}))"
    )
    assert repr(ExpectVariable("x", sensitive=True)) == "ExpectVariable('x', sensitive=True)"
    assert repr(ExpectProvider("aws", alias=None)) == "ExpectProvider('aws', alias=None)"
    assert repr(ExpectReferences("a", "b", "c", contains=["var.x"])) == (
        "ExpectReferences('a', 'b', 'c', contains=['var.x'])"
    )
    assert repr(ExpectResource("a", "b", mode="data")) == "ExpectResource('a', 'b', mode='data')"
    assert pickle.loads(pickle.dumps(ExpectVariable("x", type="string"))) == ExpectVariable(
        "x", type="string"
    )


class _Matcher:
    """A third-party matcher speaking knownvalue's CheckValue protocol (Go's name)."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, Any]] = []

    def CheckValue(
        self, value: Any, *, sensitive: Any = None, secrets: Any = None, unknown: Any = None
    ) -> None:
        self.calls.append((value, sensitive))
        from plancheck._errors import ValueMismatchError

        if value != "ok":
            raise ValueMismatchError(Path(), "not ok")


def test_any_object_with_the_CheckValue_protocol_is_a_matcher() -> None:
    matcher = _Matcher()
    check = ExpectVariable("db_password", default=matcher)
    with pytest.raises(ConfigCheckError) as info:
        check.check_config(CFG)
    assert str(info.value) == "ExpectVariable: var.db_password: default: not ok"
    assert matcher.calls == [("hunter2-secret", True)]


def test_failures_are_check_failures_with_paths() -> None:
    failures = ExpectResourceAttribute("aws_instance", "web", New("tags").AtMapKey("Team"), "x").failures(CFG)
    assert failures == [
        CheckFailure(
            "ExpectResourceAttribute",
            "aws_instance.web",
            Path.parse("tags.Team"),
            'expected value "x" for StringExact check, got: "core"',
        )
    ]


#: A string literal given to ``sensitive()`` is a secret as soon as it is written (the coverage HTML report withholds
#: its line): a config check that quotes the expression holding it hides it, wherever the expression stands.
SENSITIVE_CALLS: dict[str, Any] = {
    "locals": {"token": '${sensitive("fn-literal-4f1a9")}',
               "plain": '${nonsensitive("fn-not-secret-1")}${provider::p::sensitive("fn-not-secret-2")}'},
    "resource": {"terraform_data": {"a": {"input": '${upper(sensitive("fn-escaped-\\"quote"))}-x'}}},
    "module": {"c": {"source": "./c", "password": '${sensitive( "fn-module-arg-77ab" )}'}},
    "output": {"tmpl": {"value": '${sensitive("fn-tmpl-4b7e0-${var.x}")}'},
               "paren": {"value": '${sensitive((upper("fn-paren-2c9d1")))}'},
               "nested": {"value": '${sensitive(format("%s!", "fn-nested-5d3a2"))}'}},
}


@pytest.mark.parametrize(("check", "message"), [
    pytest.param(ExpectLocal("token", value="nope"),
                 "ExpectLocal: local.token: expected value (sensitive) for StringExact check, got: (sensitive)",
                 id="a-local"),
    pytest.param(ExpectResourceAttribute("terraform_data", "a", New("input"), "nope"),
                 "ExpectResourceAttribute: terraform_data.a: input: expected value (sensitive) for StringExact check, "
                 "got: (sensitive)", id="an-escaped-quote-in-a-resource-attribute"),
    pytest.param(ExpectModule("c", inputs={"password": "nope"}),
                 "ExpectModule: module.c: password: expected value (sensitive) for StringExact check, got: (sensitive)",
                 id="a-module-argument"),
    pytest.param(ExpectOutput("tmpl", value="nope"),
                 "ExpectOutput: output.tmpl: value: expected value (sensitive) for StringExact check, got: (sensitive)",
                 id="a-template-argument"),
    pytest.param(ExpectOutput("paren", value="nope"),
                 "ExpectOutput: output.paren: value: expected value (sensitive) for StringExact check, got: (sensitive)",
                 id="nested-parentheses"),
    pytest.param(ExpectOutput("nested", value="nope"),
                 "ExpectOutput: output.nested: value: expected value (sensitive) for StringExact check, got: (sensitive)",
                 id="a-string-of-a-call-inside-it"),
    # Not over-hidden: nonsensitive() and a provider's function of that name mark nothing.
    pytest.param(ExpectLocal("plain", value="nope"),
                 'ExpectLocal: local.plain: expected value "nope" for StringExact check, got: '
                 '"${nonsensitive(\\"fn-not-secret-1\\")}${provider::p::sensitive(\\"fn-not-secret-2\\")}"',
                 id="nonsensitive-and-a-provider-function"),
])
def test_a_literal_given_to_sensitive_is_hidden(check: ConfigCheck, message: str) -> None:
    with pytest.raises(ConfigCheckError) as info:
        check.check_config(config_from_dict(SENSITIVE_CALLS))
    assert str(info.value) == message


#: A module call's argument that its local child module declares sensitive: the child is read for its flags
#: (its .tf and .tf.json files), so the value is a secret in every message.
CHILD_SECRET = "zz-child-arg-91c3"
_HIDDEN = "ExpectModule: module.c: pw: expected value (sensitive) for StringExact check, got: (sensitive)"


@pytest.mark.parametrize(("files", "read", "message"), [
    pytest.param({"child/v.tf": 'variable "pw" {\n  sensitive = true # why\n}\n'}, ".", _HIDDEN, id="an-hcl-child"),
    pytest.param({"child/v.tf.json": '{"variable": {"pw": {"sensitive": true}}}'}, ".", _HIDDEN, id="a-json-child"),
    pytest.param({"child/v.tf": 'variable "pw" {\n  sensitive = true\n}\n'}, "main.tf.json", _HIDDEN,
                 id="the-callers-file-read-alone"),
    # Not over-hidden: a variable the child does not declare sensitive, and a remote module (not read).
    pytest.param({"child/v.tf": 'variable "pw" {}\n'}, ".",
                 f'ExpectModule: module.c: pw: expected value "nope" for StringExact check, got: "{CHILD_SECRET}"',
                 id="not-sensitive-in-the-child"),
    pytest.param({}, ".", f'ExpectModule: module.c: pw: expected value "nope" for StringExact check, got: "{CHILD_SECRET}"',
                 id="a-remote-module-is-not-read"),
])
def test_an_argument_a_local_child_declares_sensitive_is_hidden(
    tmp_path: pathlib.Path, files: dict[str, str], read: str, message: str
) -> None:
    source = "./child" if files else "acme/c/aws"
    (tmp_path / "main.tf.json").write_text(
        f'{{"module": {{"c": {{"source": "{source}", "pw": "{CHILD_SECRET}"}}}}}}', encoding="utf-8")
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    with pytest.raises(ConfigCheckError) as info:
        ExpectModule("c", inputs={"pw": "nope"}).check_config(load_config(tmp_path / read))
    assert str(info.value) == message


@pytest.mark.parametrize(("value", "message"), [
    pytest.param(f'${{\\"{CHILD_SECRET}\\"}}', _HIDDEN, id="a-quoted-string"),
    pytest.param(f'${{upper(\\"{CHILD_SECRET}\\") + var.n}}', _HIDDEN, id="a-function-argument"),
    # Terraform marks the variable's whole value: a template's literal run is in it, whatever var.x gives.
    pytest.param(f"{CHILD_SECRET}-${{var.x}}", _HIDDEN, id="a-literal-run"),
    # Not over-hidden: a template that only names where the value comes from.
    pytest.param("${var.pw}", 'ExpectModule: module.c: pw: expected value "nope" for StringExact check, got: "${var.pw}"',
                 id="a-reference"),
])
def test_a_literal_in_a_template_a_call_gives_a_childs_sensitive_variable_is_hidden(
    tmp_path: pathlib.Path, value: str, message: str
) -> None:
    # A template's quoted strings are what the call gives; only its references name where a value comes from.
    (tmp_path / "main.tf.json").write_text(f'{{"module": {{"c": {{"source": "./child", "pw": "{value}"}}}}}}',
                                           encoding="utf-8")
    (tmp_path / "child").mkdir()
    (tmp_path / "child" / "v.tf").write_text('variable "pw" {\n  sensitive = true\n}\n', encoding="utf-8")
    with pytest.raises(ConfigCheckError) as info:
        ExpectModule("c", inputs={"pw": "nope"}).check_config(load_config(tmp_path))
    assert str(info.value) == message


#: A sensitive output's template: Terraform marks the output's whole value, which holds the template's literal runs.
OUTPUT_RUN = "zz-output-run-5e21"


@pytest.mark.parametrize(("output", "message"), [
    pytest.param({"value": f"{OUTPUT_RUN}-${{var.x}}", "sensitive": True},
                 'ExpectLocal: local.l: expected value (sensitive) for StringExact check, got: (sensitive)', id="a-literal-run"),
    pytest.param({"value": f"${{var.x}}-{OUTPUT_RUN}", "sensitive": True},
                 'ExpectLocal: local.l: expected value (sensitive) for StringExact check, got: (sensitive)', id="a-trailing-run"),
    # Not over-hidden: the same output not sensitive.
    pytest.param({"value": f"{OUTPUT_RUN}-${{var.x}}"},
                 f'ExpectLocal: local.l: expected value "nope" for StringExact check, got: "{OUTPUT_RUN}-prod"',
                 id="not-sensitive"),
])
def test_a_literal_run_of_a_sensitive_outputs_template_is_hidden(output: dict[str, Any], message: str) -> None:
    # The local holds the output's value as Terraform evaluates it: the run shows in it.
    config = config_from_dict({"output": {"o": output}, "locals": {"l": f"{OUTPUT_RUN}-prod"}})
    with pytest.raises(ConfigCheckError) as info:
        ExpectLocal("l", value="nope").check_config(config)
    assert str(info.value) == message
