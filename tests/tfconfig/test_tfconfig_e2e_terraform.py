"""Every example of Terraform's "JSON Configuration Syntax" page: read, checked, written, and validated by
the real Terraform.

The examples use AWS resources; here they use resources that need no download: the built-in
``terraform_data`` (Terraform >= 1.4), or else the pinned null provider from its PyPI package
served through a local filesystem mirror (for the pinned Terraform 1.0.3).
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from plancheck._terraform.binary import (
    build_provider_mirror,
    discover_terraform,
    inspect_binary,
    write_cli_config,
)
from plancheck.tfconfig import (
    Config,
    ConfigFormatError,
    ExpectModule,
    ExpectOutput,
    ExpectProvider,
    ExpectReferences,
    ExpectResource,
    ExpectResourceAttribute,
    ExpectVariable,
    assert_config,
    config_from_dict,
    load_config,
    parse_config,
    write_config,
)
from tfjsonpath import New
from tools.pinned import find_null_provider, find_pinned_terraform


@dataclass(frozen=True)
class Tf:
    """The Terraform to validate with, and the no-download resource type and provider it can use."""

    binary: str
    version: str
    resource: str  # terraform_data or null_resource
    attr: str  # an argument of it that takes a map of strings
    provider: str  # the provider owning `resource` (terraform or null)
    cli_config: Path


@pytest.fixture(scope="module")
def tf(tmp_path_factory: pytest.TempPathFactory) -> Tf:
    base = tmp_path_factory.mktemp("tfconfig-e2e")
    found = discover_terraform()
    if found is not None and found.version_tuple >= (1, 4):
        empty = base / "empty.tfrc"
        empty.write_text("", encoding="utf-8")
        return Tf(found.path, found.version, "terraform_data", "input", "terraform", empty)
    pinned = found.path if found is not None else find_pinned_terraform()
    null = find_null_provider()
    if pinned is None or null is None:
        reason = "no terraform on PATH (nor the pinned Terraform with the null provider)"
        if os.environ.get("TFPLANCHECK_REQUIRE_E2E") == "1":
            pytest.fail(reason + " and TFPLANCHECK_REQUIRE_E2E=1", pytrace=False)
        pytest.skip(reason)
    mirror = build_provider_mirror(base / "mirror", [null])
    rc = write_cli_config(base / "null.tfrc", mirror, [null.source])
    return Tf(str(pinned), inspect_binary(pinned).version, "null_resource", "triggers", "null", rc)


def _run(tf: Tf, workdir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TF_")}
    env.update(
        TF_CLI_CONFIG_FILE=str(tf.cli_config),
        TF_IN_AUTOMATION="1",
        TF_INPUT="0",
        CHECKPOINT_DISABLE="1",
        TF_DATA_DIR=str(workdir / ".terraform"),
    )
    return subprocess.run(
        [tf.binary, *args, "-no-color"],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _validate(tf: Tf, workdir: Path) -> str:
    init = _run(tf, workdir, "init", "-backend=false", "-input=false")
    assert init.returncode == 0, init.stdout + init.stderr
    result = _run(tf, workdir, "validate")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success! The configuration is valid" in result.stdout
    return result.stdout


# Each example: the doc's JSON with aws_instance -> tf.resource, aws -> tf.provider, instance
# arguments moved into tf.attr (a map of strings), and the checks the example should pass.
Example = Callable[[Tf], tuple[dict[str, Any], list[Any]]]


def _file_structure_variable(tf: Tf) -> tuple[dict[str, Any], list[Any]]:
    return {"variable": {"example": {"default": "hello"}}}, [ExpectVariable("example", default="hello")]


def _file_structure_resource(tf: Tf) -> tuple[dict[str, Any], list[Any]]:
    body = {tf.attr: {"instance_type": "t2.micro", "ami": "ami-abc123"}}
    return {"resource": {tf.resource: {"example": body}}}, [
        ExpectResourceAttribute(tf.resource, "example", New(tf.attr).AtMapKey("ami"), "ami-abc123")
    ]


def _expression_mapping_output(tf: Tf) -> tuple[dict[str, Any], list[Any]]:
    # The page writes the value as a bare `aws_instance.example`, which is not JSON; "${...}" is the JSON form.
    return {
        "resource": {tf.resource: {"example": {}}},
        "output": {"example": {"value": f"${{{tf.resource}.example}}"}},
    }, [ExpectOutput("example", references=[f"{tf.resource}.example"])]


def _nested_block_lifecycle(tf: Tf) -> tuple[dict[str, Any], list[Any]]:
    return {"resource": {tf.resource: {"example": {"lifecycle": {"create_before_destroy": True}}}}}, [
        ExpectResourceAttribute(
            tf.resource, "example", New("lifecycle").AtMapKey("create_before_destroy"), True
        )
    ]


def _provisioner_array(tf: Tf) -> tuple[dict[str, Any], list[Any]]:
    provisioners = [
        {"local-exec": {"command": "echo 'Hello World' >example.txt"}},
        {"file": {"source": "example.txt", "destination": "/tmp/example.txt"}},
        {"remote-exec": {"inline": ["sudo install-something -f /tmp/example.txt"]}},
    ]
    return {"resource": {tf.resource: {"example": {"provisioner": provisioners}}}}, [
        ExpectResourceAttribute(
            tf.resource,
            "example",
            New("provisioner").AtSliceIndex(2).AtMapKey("remote-exec").AtMapKey("inline").AtSliceIndex(0),
            "sudo install-something -f /tmp/example.txt",
        )
    ]


def _comment_in_body(tf: Tf) -> tuple[dict[str, Any], list[Any]]:
    body = {
        "//": "This instance runs the scheduled tasks for backup",
        tf.attr: {"instance_type": "t2.micro", "ami": "ami-abc123"},
    }
    return {"resource": {tf.resource: {"example": body}}}, [ExpectResource(tf.resource, "example")]


def _comment_at_root(tf: Tf) -> tuple[dict[str, Any], list[Any]]:
    return {
        "//": "This file is generated by generate-outputs.py. DO NOT HAND-EDIT!",
        "resource": {tf.resource: {"example": {}}},
        "output": {"example": {"value": f"${{{tf.resource}.example}}"}},
    }, [ExpectOutput("example")]


def _resource_provider_reference(tf: Tf) -> tuple[dict[str, Any], list[Any]]:
    return {
        "provider": {tf.provider: {"alias": "foo"}},
        "resource": {tf.resource: {"example": {"provider": f"{tf.provider}.foo"}}},
    }, [
        ExpectResourceAttribute(tf.resource, "example", New("provider"), f"{tf.provider}.foo"),
        ExpectProvider(tf.provider, alias="foo"),
    ]


def _meta_arguments(tf: Tf) -> tuple[dict[str, Any], list[Any]]:
    return {
        "resource": {
            tf.resource: {
                "a": {"depends_on": [f"{tf.resource}.b"], "lifecycle": {"ignore_changes": "all"}},
                "b": {"lifecycle": {"ignore_changes": [tf.attr]}},
            }
        }
    }, [ExpectReferences(tf.resource, "a", contains=[f"{tf.resource}.b"])]


def _variable_block(tf: Tf) -> tuple[dict[str, Any], list[Any]]:
    return {"variable": {"example": {"type": "string", "default": "hello"}}}, [
        ExpectVariable("example", type="string", default="hello")
    ]


def _output_block(tf: Tf) -> tuple[dict[str, Any], list[Any]]:
    return {
        "resource": {tf.resource: {"example": {}}},
        "output": {
            "example": {
                "value": f"${{{tf.resource}.example}}",
                "description": "The ${literal} thing",
                "sensitive": False,
            }
        },
    }, [ExpectOutput("example", sensitive=False, description="The ${literal} thing")]


def _locals_block(tf: Tf) -> tuple[dict[str, Any], list[Any]]:
    return {"variable": {"name": {"type": "string"}}, "locals": {"greeting": "Hello, ${var.name}"}}, []


def _module_block(tf: Tf) -> tuple[dict[str, Any], list[Any]]:
    # The page's registry module would need a download; a local module takes the same providers mapping
    # (a version constraint is only valid for registry sources).
    return {
        "provider": {tf.provider: [{}, {"alias": "usw1"}]},
        "module": {"example": {"source": "./child", "providers": {tf.provider: f"{tf.provider}.usw1"}}},
    }, [ExpectModule("example", source="./child", inputs={"providers": {tf.provider: f"{tf.provider}.usw1"}})]


def _provider_alias_array(tf: Tf) -> tuple[dict[str, Any], list[Any]]:
    return {"provider": {tf.provider: [{}, {"alias": "usw1"}]}}, [
        ExpectProvider(tf.provider, alias=None),
        ExpectProvider(tf.provider, alias="usw1"),
    ]


def _terraform_backend(tf: Tf) -> tuple[dict[str, Any], list[Any]]:
    return {
        "terraform": {
            "required_version": ">= 0.12.0",
            "backend": {"s3": {"region": "us-west-2", "bucket": "acme-terraform-states"}},
        }
    }, []


EXAMPLES: list[tuple[str, Example]] = [
    ("file-structure-variable", _file_structure_variable),
    ("file-structure-resource", _file_structure_resource),
    ("expression-mapping-output", _expression_mapping_output),
    ("nested-block-lifecycle", _nested_block_lifecycle),
    ("nested-block-provisioner-array", _provisioner_array),
    ("comment-properties-in-body", _comment_in_body),
    ("comment-properties-at-root", _comment_at_root),
    ("resource-provider-reference", _resource_provider_reference),
    ("resource-meta-arguments", _meta_arguments),
    ("variable-block", _variable_block),
    ("output-block", _output_block),
    ("locals-block", _locals_block),
    ("module-block-providers", _module_block),
    ("provider-alias-array", _provider_alias_array),
    ("terraform-backend", _terraform_backend),
]


@pytest.mark.e2e
@pytest.mark.parametrize("example", [e for _, e in EXAMPLES], ids=[i for i, _ in EXAMPLES])
def test_doc_example_reads_checks_writes_and_validates(tf: Tf, tmp_path: Path, example: Example) -> None:
    config_dict, checks = example(tf)
    assert_config(config_dict, *checks)
    path = write_config(config_dict, tmp_path)
    if "module" in config_dict:
        write_config({}, tmp_path / "child")
    config = load_config(tmp_path)
    assert config.files == (str(path),)
    assert config == load_config(path)
    assert config_from_dict(config_dict).blocks[0].address == config.blocks[0].address
    assert_config(config, *checks)
    _validate(tf, tmp_path)


@pytest.mark.e2e
def test_terraform_agrees_on_an_invalid_config_that_the_writer_refuses(tf: Tf, tmp_path: Path) -> None:
    bad = {"resource": {tf.resource: {"a": {"depends_on": [f"${{{tf.resource}.b}}"]}, "b": {}}}}
    with pytest.raises(ConfigFormatError, match=r'\["depends_on"\]\[0\]: expected a reference'):
        write_config(bad, tmp_path)
    (tmp_path / "main.tf.json").write_text(json.dumps(bad), encoding="utf-8")
    assert _run(tf, tmp_path, "init", "-backend=false", "-input=false").returncode != 0


# The page's two examples with a bare reference as a value are not JSON; the reader says where.
DOC_TEXT_WITH_BARE_REFERENCE = """{
  "output": {
    "example": {
      "value": aws_instance.example
    }
  }
}"""


def test_the_page_bare_reference_example_is_located() -> None:
    with pytest.raises(ConfigFormatError) as info:
        parse_config(DOC_TEXT_WITH_BARE_REFERENCE, filename="outputs.tf.json")
    assert str(info.value) == (
        'outputs.tf.json:4:16: $.output["example"]["value"]: expected a JSON value, found \'aws_instance.example\''
    )


def test_examples_read_as_config_objects() -> None:
    fake = Tf("terraform", "1.11.0", "terraform_data", "input", "terraform", Path("/dev/null"))
    for _, example in EXAMPLES:
        config_dict, checks = example(fake)
        config = config_from_dict(config_dict)
        assert isinstance(config, Config)
        assert_config(config, *checks)
