"""Template: aws-cdk's assertions.Template, ported; and load_config_for_test."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from plancheck import knownvalue as kv
from plancheck._errors import ConfigCheckError
from plancheck.tfconfig import ConfigFormatError, Template, load_config_for_test

# What a CDK-for-Terraform app synthesizes into cdk.tf.json (abridged).
SYNTH: dict[str, Any] = {
    "//": {"metadata": {"stackName": "app", "version": "0.20.0"}},
    "provider": {"aws": [{"region": "us-east-1"}]},
    "resource": {
        "aws_sns_topic": {
            "alerts": {"name": "alerts", "fifo_topic": False, "tags": {"team": "sre", "env": "prod"}},
            "audit": {"name": "audit.fifo", "fifo_topic": True},
        },
        "aws_sqs_queue": {
            "jobs": {"name": "jobs", "visibility_timeout_seconds": 30, "depends_on": ["aws_sns_topic.alerts"]}
        },
    },
    "data": {"aws_caller_identity": {"current": {}}},
    "output": {"topic_arn": {"value": "${aws_sns_topic.alerts.arn}"}},
    "variable": {"token": {"type": "string", "sensitive": True, "default": "tok-123456"}},
    "module": {"vpc": {"source": "./vpc", "cidr": "10.0.0.0/16"}},
}


def test_aws_cdk_style_port() -> None:
    # aws-cdk:  template = Template.from_stack(stack)
    template = Template.from_json(SYNTH)
    # aws-cdk:  template.resource_count_is("AWS::SNS::Topic", 2)
    template.resource_count_is("aws_sns_topic", 2)
    # aws-cdk:  template.has_resource_properties("AWS::SNS::Topic", {"TopicName": "alerts"})
    template.has_resource_properties("aws_sns_topic", {"name": "alerts"})
    # aws-cdk:  template.has_resource_properties("AWS::SNS::Topic", Match.object_like({"Tags": Match.array_with(...)}))
    template.has_resource_properties("aws_sns_topic", {"tags": {"team": "sre"}})
    # aws-cdk:  template.has_resource_properties("AWS::SNS::Topic", {"FifoTopic": Match.any_value()})
    template.has_resource_properties(
        "aws_sns_topic", {"fifo_topic": kv.NotNull(), "name": kv.StringRegexp(r"\.fifo$")}
    )
    # aws-cdk:  template.find_resources("AWS::SQS::Queue", {"Properties": {...}})
    assert template.find_resources("aws_sqs_queue", {"visibility_timeout_seconds": 30}) == {
        "jobs": {"name": "jobs", "visibility_timeout_seconds": 30, "depends_on": ["aws_sns_topic.alerts"]}
    }
    # aws-cdk:  template.has_resource("AWS::SQS::Queue", {"DependsOn": [...]})
    template.has_resource("aws_sqs_queue", {"depends_on": ["aws_sns_topic.alerts"]})
    template.has_output("topic_arn", {"value": "${aws_sns_topic.alerts.arn}"})
    template.has_variable("token", {"type": "string"})
    template.has_data_source_properties("aws_caller_identity")
    template.has_provider("aws", {"region": "us-east-1"})
    template.has_module("vpc", {"cidr": "10.0.0.0/16"})
    template.resource_properties_count_is("aws_sns_topic", {"fifo_topic": False}, 1)
    template.all_resources_properties("aws_sns_topic", {"name": kv.NotNull()})


TEMPLATE_FAILURES: list[tuple[str, Any, str]] = [
    (
        "has-resource-properties",
        lambda t: t.has_resource_properties("aws_sns_topic", {"name": "billing"}),
        "has_resource_properties: aws_sns_topic: none of 2 aws_sns_topic resources matches; aws_sns_topic.alerts: "
        'name: expected value "billing" for StringExact check, got: "alerts"; aws_sns_topic.audit: name: expected '
        'value "billing" for StringExact check, got: "audit.fifo"',
    ),
    (
        "closest-first",
        lambda t: t.has_resource_properties("aws_sns_topic", {"tags": {"team": "dev"}}),
        "has_resource_properties: aws_sns_topic: none of 2 aws_sns_topic resources matches; aws_sns_topic.alerts: "
        'tags["team"]: expected value "dev" for StringExact check, got: "sre"; aws_sns_topic.audit: missing attribute '
        '"tags" for ObjectPartial check',
    ),
    (
        "unknown-type",
        lambda t: t.has_resource_properties("aws_sns_topik", {}),
        "has_resource_properties: aws_sns_topik: the configuration has no aws_sns_topik resources; closest types: "
        "aws_sns_topic",
    ),
    (
        "count",
        lambda t: t.resource_count_is("aws_sns_topic", 1),
        "resource_count_is: aws_sns_topic: expected 1 aws_sns_topic resources, found 2: aws_sns_topic.alerts, "
        "aws_sns_topic.audit",
    ),
    (
        "properties-count",
        lambda t: t.resource_properties_count_is("aws_sns_topic", {"fifo_topic": True}, 2),
        "resource_properties_count_is: aws_sns_topic: expected 2 matching aws_sns_topic resources, found 1: "
        "aws_sns_topic.audit",
    ),
    (
        "all-resources",
        lambda t: t.all_resources_properties("aws_sns_topic", {"fifo_topic": False}),
        "all_resources_properties: aws_sns_topic.audit: fifo_topic: expected value false for Bool check, got: true",
    ),
    (
        "output-missing",
        lambda t: t.has_output("arn"),
        "has_output: output.arn: no output named arn in the configuration",
    ),
    (
        "sensitive-variable-hidden",
        lambda t: t.has_variable("token", {"default": "x"}),
        "has_variable: var.token: no variable matches; var.token: default: expected value (sensitive) for StringExact "
        "check, got: (sensitive)",
    ),
    (
        "provider",
        lambda t: t.has_provider("aws", {"region": "eu-west-1"}),
        "has_provider: aws: none of 1 aws provider configurations matches; provider.aws: region: expected value "
        '"eu-west-1" for StringExact check, got: "us-east-1"',
    ),
]


@pytest.mark.parametrize(
    ("call", "message"), [(c, m) for _, c, m in TEMPLATE_FAILURES], ids=[i for i, *_ in TEMPLATE_FAILURES]
)
def test_template_failures_name_the_closest_candidates(call: Any, message: str) -> None:
    with pytest.raises(ConfigCheckError) as info:
        call(Template.from_json(SYNTH))
    assert str(info.value) == message
    assert "tok-123456" not in str(info.value)


def test_template_constructors_and_to_json(tmp_path: Path) -> None:
    path = tmp_path / "cdk.tf.json"
    path.write_text(json.dumps(SYNTH), encoding="utf-8")
    from_file = Template.from_file(path)
    from_string = Template.from_string(path.read_text(encoding="utf-8"))
    assert from_file.to_json() == from_string.to_json()
    assert from_file.to_json()["resource"] == SYNTH["resource"]
    assert from_file.to_json()["provider"] == {"aws": {"region": "us-east-1"}}
    assert Template.from_file(tmp_path).config.files == (str(path),)
    assert list(from_file.find_outputs()) == ["topic_arn"]
    assert from_file.find_variables("*", {"type": "string"}) == {
        "token": {"type": "string", "sensitive": True, "default": "tok-123456"}
    }
    assert from_file.find_data_sources("aws_caller_identity") == {"current": {}}
    with pytest.raises(AttributeError):
        from_file.x = 1  # type: ignore[attr-defined]
    with pytest.raises(
        ConfigFormatError, match=r'^\$\.resource\["t"\]: expected an object of resource names'
    ):
        Template.from_json({"resource": {"t": 1}})


# -- load_config_for_test ---------------------------------------------------------------------------


def test_load_config_for_test_resolves_against_the_test_file(tmp_path: Path) -> None:
    (tmp_path / "fixtures" / "module").mkdir(parents=True)
    (tmp_path / "fixtures" / "module" / "main.tf.json").write_text(
        '{"variable": {"x": {}}}', encoding="utf-8"
    )
    (tmp_path / "fixtures" / "one.tofu.json").write_text('{"locals": {"a": 1}}', encoding="utf-8")
    test_file = tmp_path / "test_something.py"
    assert list(load_config_for_test("fixtures/module", relative_to=test_file).variables) == ["x"]
    assert load_config_for_test("fixtures/one.tofu.json", relative_to=tmp_path).locals == {"a": 1}
    assert list(load_config_for_test(tmp_path / "fixtures" / "module").variables) == ["x"]
    with pytest.raises(FileNotFoundError) as info:
        load_config_for_test("fixtures/nope", relative_to=test_file)
    assert (
        str(info.value)
        == f"tf_config: no configuration file or directory at {tmp_path / 'fixtures' / 'nope'}"
    )


@pytest.mark.parametrize(
    "document",
    [
        pytest.param([{"resource": {"null_resource": {"a": {}}}}, {"resource": {"null_resource": {"b": {}}}}],
                     id="list"),
        pytest.param(({"resource": {"null_resource": {"a": {}}}}, {"resource": {"null_resource": {"b": {}}}}),
                     id="tuple"),
    ],
)
def test_a_top_level_array_is_a_configuration_for_every_entry_point(document: object) -> None:
    from plancheck.tfconfig import ExpectResourceCount, assert_config, config_from_dict

    Template.from_json(document).resource_count_is("null_resource", 2)  # type: ignore[arg-type]
    assert_config(document, ExpectResourceCount("null_resource", 2))  # type: ignore[arg-type]
    assert sorted(b.labels[1] for b in config_from_dict(document).blocks) == ["a", "b"]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("call", "name", "pattern"),
    [
        pytest.param("has_variable", "pw", '{"default": "other"}', id="has_variable"),
        pytest.param("has_variable", "*", '{"default": "other"}', id="has_variable-any-name"),
        pytest.param("has_output", "pw", '{"value": "other"}', id="has_output"),
    ],
)
def test_a_failing_template_shows_no_sensitive_value_in_its_frames(
    pytester: pytest.Pytester, call: str, name: str, pattern: str
) -> None:
    """``pytest -l --tb=long`` prints the locals of every frame it shows: a Template's frames held the bodies
    of sensitive variables and outputs (their values in clear), so Template's frames are hidden, as every
    check's are, and the failure points at the test's own line."""
    secret = "tok-" + "x7Qz" * 4
    (pytester.path / "main.tf.json").write_text(json.dumps({
        "variable": {"pw": {"type": "string", "sensitive": True, "default": secret}},
        "output": {"pw": {"value": secret, "sensitive": True}},
    }))
    pytester.makepyfile(test_inner=(
        "from plancheck.tfconfig import Template\n\n\n"
        "def test_t():\n"
        "    t = Template.from_file('main.tf.json')\n"
        f"    t.{call}({name!r}, {pattern})\n"
    ))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-l", "--tb=long")
    result.assert_outcomes(failed=1)
    output = "\n".join(result.outlines + result.errlines)
    assert secret not in output
