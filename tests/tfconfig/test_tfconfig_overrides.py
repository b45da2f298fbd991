"""Override files are merged into a module as Terraform merges them (issue #19 item 3)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck.tfconfig import Config, ConfigFormatError, load_config
from plancheck.tfconfig._load import merge_overrides


def _load(tmp_path: Path, files: dict[str, Any], **kwargs: Any) -> Config:
    for name, content in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else json.dumps(content, indent=1), encoding="utf-8")
    return load_config(tmp_path, **kwargs)


def _body(config: Config, address: str) -> dict[str, Any] | None:
    for block in config.blocks:
        if block.address == address:
            return block.body
    return None


RES = "terraform_data"

MERGES = [
    pytest.param(
        {"main.tf.json": {"resource": {RES: {"a": {"input": "base", "triggers_replace": ["kept"]}}}},
         "override.tf.json": {"resource": {RES: {"a": {"input": "over"}}}}},
        "terraform_data.a",
        {"input": "over", "triggers_replace": ["kept"]},
        id="resource-argument-by-argument",
    ),
    pytest.param(
        {"main.tf.json": {"resource": {RES: {"a": {"count": 1, "provider": "terraform"}}}},
         "override.tf.json": {"resource": {RES: {"a": {"count": 3}}}}},
        "terraform_data.a",
        {"count": 3, "provider": "terraform"},
        id="resource-meta-arguments",
    ),
    pytest.param(
        {"main.tf.json": {"resource": {RES: {"a": {"provisioner": [
            {"local-exec": {"command": "one"}}, {"local-exec": {"command": "two"}}]}}}},
         "override.tf.json": {"resource": {RES: {"a": {"provisioner": {"local-exec": {"command": "over"}}}}}}},
        "terraform_data.a",
        {"provisioner": {"local-exec": {"command": "over"}}},
        id="nested-blocks-replaced-as-a-whole",
    ),
    pytest.param(
        {"main.tf.json": {"resource": {RES: {"a": {"lifecycle": {
            "create_before_destroy": True, "ignore_changes": ["input"],
            "precondition": {"condition": "${true}", "error_message": "base"}}}}}},
         "override.tf.json": {"resource": {RES: {"a": {"lifecycle": {
             "create_before_destroy": False, "ignore_changes": [],
             "postcondition": {"condition": "${true}", "error_message": "over, not used"}}}}}}},
        "terraform_data.a",
        {"lifecycle": {"create_before_destroy": False, "ignore_changes": ["input"],
                       "precondition": {"condition": "${true}", "error_message": "base"}}},
        id="lifecycle-argument-by-argument-conditions-kept",
    ),
    pytest.param(
        {"main.tf.json": {"resource": {RES: {"a": {"connection": {"type": "ssh", "host": "kept"}}}}},
         "override.tf.json": {"resource": {RES: {"a": {"connection": [], "input": 2}}}}},
        "terraform_data.a",
        {"connection": {"type": "ssh", "host": "kept"}, "input": 2},
        id="empty-nested-block-array-keeps-base",
    ),
    pytest.param(
        {"main.tf.json": {"resource": {RES: {"a": {"input": 1}}}},
         "override.tf.json": {"resource": {RES: {"a": {"lifecycle": {"prevent_destroy": True}}}}}},
        "terraform_data.a",
        {"input": 1, "lifecycle": {"prevent_destroy": True}},
        id="lifecycle-added",
    ),
    pytest.param(
        {"main.tf.json": {"resource": {RES: {"a": {"input": 1, "dynamic": {
            "x": {"for_each": [1], "content": {}}, "y": {"for_each": [2], "content": {}}}}}}},
         "override.tf.json": {"resource": {RES: {"a": {"x": {"k": 1}}}}}},
        "terraform_data.a",
        {"input": 1, "x": {"k": 1}, "dynamic": {"y": {"for_each": [2], "content": {}}}},
        id="dynamic-block-of-an-overridden-type-dropped",
    ),
    pytest.param(
        {"main.tf.json": {"variable": {"v": {
            "type": "string", "default": "base", "validation": {"condition": "${true}", "error_message": "kept"}}}},
         "override.tf.json": {"variable": {"v": {"default": "over", "validation": {
             "condition": "${false}", "error_message": "not used"}}}}},
        "var.v",
        {"type": "string", "default": "over", "validation": {"condition": "${true}", "error_message": "kept"}},
        id="variable-validation-kept",
    ),
    pytest.param(
        {"main.tf.json": {"variable": {"v": {"default": "base", "const": False, "deprecated": "kept"}}},
         "override.tf.json": {"variable": {"v": {"const": True, "deprecated": "over, not used"}}}},
        "var.v",
        {"default": "base", "const": True, "deprecated": "kept"},
        id="terraform-1.15-variable-const-merged-deprecated-kept",
    ),
    pytest.param(
        {"main.tf.json": {"output": {"o": {"value": 1, "type": "number", "deprecated": "kept"}}},
         "override.tf.json": {"output": {"o": {"type": "string", "deprecated": "over, not used"}}}},
        "output.o",
        {"value": 1, "type": "string", "deprecated": "kept"},
        id="terraform-1.15-output-type-merged-deprecated-kept",
    ),
    pytest.param(
        {"main.tf.json": {"resource": {RES: {"a": {"lifecycle": {"destroy": False}}}}},
         "override.tf.json": {"resource": {RES: {"a": {"lifecycle": {"destroy": True, "prevent_destroy": True}}}}}},
        "terraform_data.a",
        {"lifecycle": {"destroy": False, "prevent_destroy": True}},
        id="terraform-1.16-lifecycle-destroy-kept",
    ),
    pytest.param(
        {"main.tf.json": {"resource": {RES: {"a": {"lifecycle": {"prevent_destroy": True, "action_trigger": [
            {"events": ["after_create"], "actions": ["action.t.one"]},
            {"events": ["after_update"], "actions": ["action.t.two"]}]}}}}},
         "override.tf.json": {"resource": {RES: {"a": {"lifecycle": {"action_trigger": {
             "events": ["before_destroy"], "actions": ["action.t.over"]}}}}}}},
        "terraform_data.a",
        {"lifecycle": {"prevent_destroy": True,
                       "action_trigger": {"events": ["before_destroy"], "actions": ["action.t.over"]}}},
        id="terraform-1.14-action-triggers-replaced-as-a-whole",
    ),
    pytest.param(
        {"main.tf.json": {"resource": {RES: {"a": {"lifecycle": {"action_trigger": {
            "events": ["after_create"], "actions": ["action.t.one"]}}}}}},
         "override.tf.json": {"resource": {RES: {"a": {"lifecycle": {"action_trigger": [], "prevent_destroy": True}}}}}},
        "terraform_data.a",
        {"lifecycle": {"action_trigger": {"events": ["after_create"], "actions": ["action.t.one"]},
                       "prevent_destroy": True}},
        id="terraform-1.14-no-action-trigger-keeps-base",
    ),
    pytest.param(
        {"main.tf.json": {"resource": {RES: {"a": {"input": 1}}}},
         "override.tf.json": {"resource": {RES: {"a": {"lifecycle": {"action_trigger": {
             "events": ["after_create"], "actions": ["action.t.over"]}}}}}}},
        "terraform_data.a",
        {"input": 1, "lifecycle": {"action_trigger": {"events": ["after_create"], "actions": ["action.t.over"]}}},
        id="terraform-1.14-action-trigger-added",
    ),
    pytest.param(
        {"main.tf.json": {"output": {"o": {"value": 1, "description": "kept"}}},
         "override.tf.json": {"output": {"o": {"value": 2, "description": "", "sensitive": True}}}},
        "output.o",
        {"value": 2, "description": "kept", "sensitive": True},
        id="output-empty-description-keeps-base",
    ),
    pytest.param(
        {"main.tf.json": {"output": {"o": {"value": "base", "description": "base"}}},
         "a_override.tf.json": {"output": {"o": {"value": "a"}}},
         "override.tf.json": {"output": {"o": {"value": "last"}}},
         "b_override.tf.json": {"output": {"o": {"description": "b"}}}},
        "output.o",
        {"value": "last", "description": "b"},
        id="lexical-order-last-wins",
    ),
    pytest.param(
        {"main.tf.json": {"module": {"m": {"source": "./a", "x": 1, "y": 2, "providers": {"aws": "aws"}}}},
         "override.tf.json": {"module": {"m": {"source": "./b", "y": 3, "providers": {}}}}},
        "module.m",
        {"source": "./b", "x": 1, "y": 3, "providers": {"aws": "aws"}},
        id="module-call",
    ),
    pytest.param(
        {"main.tf.json": {"provider": {"aws": [{"region": "a"}, {"alias": "w", "region": "b"}]}},
         "override.tf.json": {"provider": {"aws": {"alias": "w", "region": "c"}}}},
        "provider.aws.w",
        {"alias": "w", "region": "c"},
        id="aliased-provider",
    ),
    pytest.param(
        {"main.tf.json": {"output": {"o": {"value": 1}}},
         "override.tf.json": {"provider": {"aws": {"region": "new"}}}},
        "provider.aws",
        {"region": "new"},
        id="default-provider-added",
    ),
    pytest.param(
        {"main.tf.json": {"terraform": [
            {"required_version": ">= 1.0", "backend": {"local": {"path": "a"}}},
            {"required_version": "< 2.0", "required_providers": {
                "aws": {"source": "hashicorp/aws"}, "null": {"source": "hashicorp/null"}}}]},
         "override.tf.json": {"terraform": {"required_version": ">= 1.5", "cloud": {"organization": "o"},
                                            "required_providers": {"aws": {"source": "acme/aws"}}}}},
        "terraform",
        {"required_version": ">= 1.5", "cloud": {"organization": "o"}},
        id="terraform-block-version-and-backend",
    ),
]


#: What OpenTofu's module_merge.go merges and Terraform's keeps from the base: a variable's and an output's
#: deprecated (when not empty) and a resource's lifecycle destroy. Each row: files, address, Terraform's body,
#: OpenTofu's body.
FLAVORED = [
    pytest.param(
        {"main.tf.json": {"variable": {"v": {"default": "base", "deprecated": "base"}}},
         "override.tf.json": {"variable": {"v": {"deprecated": "over"}}}},
        "var.v",
        {"default": "base", "deprecated": "base"},
        {"default": "base", "deprecated": "over"},
        id="variable-deprecated",
    ),
    pytest.param(
        {"main.tf.json": {"output": {"o": {"value": 1, "deprecated": "base"}}},
         "override.tf.json": {"output": {"o": {"deprecated": "over"}}}},
        "output.o",
        {"value": 1, "deprecated": "base"},
        {"value": 1, "deprecated": "over"},
        id="output-deprecated",
    ),
    pytest.param(
        {"main.tf.json": {"variable": {"v": {"deprecated": "base"}}, "output": {"o": {"value": 1, "deprecated": "base"}}},
         "override.tf.json": {"variable": {"v": {"deprecated": ""}}, "output": {"o": {"deprecated": ""}}}},
        "output.o",
        {"value": 1, "deprecated": "base"},
        {"value": 1, "deprecated": "base"},
        id="empty-deprecated-keeps-base",
    ),
    pytest.param(
        {"main.tf.json": {"variable": {"v": {"deprecated": "base"}}},
         "override.tf.json": {"variable": {"v": {"deprecated": ""}}}},
        "var.v",
        {"deprecated": "base"},
        {"deprecated": "base"},
        id="empty-variable-deprecated-keeps-base",
    ),
    pytest.param(
        {"main.tf.json": {"resource": {RES: {"a": {"lifecycle": {"destroy": False, "prevent_destroy": False}}}}},
         "override.tf.json": {"resource": {RES: {"a": {"lifecycle": {"destroy": True, "prevent_destroy": True}}}}}},
        "terraform_data.a",
        {"lifecycle": {"destroy": False, "prevent_destroy": True}},
        {"lifecycle": {"destroy": True, "prevent_destroy": True}},
        id="lifecycle-destroy",
    ),
    pytest.param(
        {"main.tf.json": {"resource": {RES: {"a": {"input": 1}}}},
         "override.tf.json": {"resource": {RES: {"a": {"lifecycle": {"destroy": False}}}}}},
        "terraform_data.a",
        {"input": 1, "lifecycle": {}},
        {"input": 1, "lifecycle": {"destroy": False}},
        id="lifecycle-destroy-base-without-lifecycle",
    ),
    pytest.param(
        {"main.tf.json": {"module": {"m": {"source": "./m", "ignore_nested_deprecations": True}}},
         "override.tf.json": {"module": {"m": {"ignore_nested_deprecations": False}}}},
        "module.m",
        # Terraform 1.15's meta-argument, which its merge does not copy; for OpenTofu an input like any other.
        {"source": "./m", "ignore_nested_deprecations": True},
        {"source": "./m", "ignore_nested_deprecations": False},
        id="module-ignore_nested_deprecations",
    ),
]


@pytest.mark.parametrize(("files", "address", "terraform", "opentofu"), FLAVORED)
def test_the_merge_follows_the_flavor(
    tmp_path: Path, files: dict[str, Any], address: str, terraform: dict[str, Any], opentofu: dict[str, Any]
) -> None:
    """Before: load_config(flavor="opentofu") merged as Terraform does."""
    assert _body(_load(tmp_path, files), address) == terraform
    assert _body(load_config(tmp_path, flavor="terraform"), address) == terraform
    config = load_config(tmp_path, flavor="opentofu")
    assert _body(config, address) == opentofu
    assert [b.body for b in merge_overrides(config.primary_blocks, config.overrides, flavor="opentofu")] == [
        b.body for b in config.blocks]
    assert [b.body for b in merge_overrides(config.primary_blocks, config.overrides)] == [
        b.body for b in _load(tmp_path, {}).blocks]


#: What Terraform reads and OpenTofu's schema has not (opentofu internal/configs: named_values.go, resource.go,
#: removed.go): OpenTofu refuses it as the reader refuses a misspelt argument. Each row: files, the error.
NOT_OPENTOFU = [
    pytest.param(
        {"main.tf.json": {"resource": {RES: {"a": {"input": 1}}}},
         "override.tf.json": '{"resource": {"terraform_data": {"a": {"lifecycle": {"action_trigger": '
                             '{"events": ["after_create"], "actions": ["action.t.one"]}}}}}}'},
        'override.tf.json:1:54: $.resource["terraform_data"]["a"]["lifecycle"]["action_trigger"]: expected an '
        'argument or block of lifecycle (create_before_destroy, destroy, enabled, ignore_changes, postcondition, '
        'precondition, prevent_destroy, replace_triggered_by), found "action_trigger"',
        id="override-lifecycle-action_trigger",
    ),
    pytest.param(
        {"main.tf.json": '{"output": {"o": {"value": 1, "type": "number"}}}'},
        'main.tf.json:1:31: $.output["o"]["type"]: expected an argument or block of output "o" (depends_on, '
        'deprecated, description, ephemeral, precondition, sensitive, value), found "type"',
        id="output-type",
    ),
    pytest.param(
        {"main.tf.json": {"output": {"o": {"value": 1}}},
         "override.tf.json": '{"output": {"o": {"type": "number"}}}'},
        'override.tf.json:1:19: $.output["o"]["type"]: expected an argument or block of output "o" (depends_on, '
        'deprecated, description, ephemeral, precondition, sensitive, value), found "type"',
        id="override-output-type",
    ),
    pytest.param(
        {"main.tf.json": '{"removed": {"from": "terraform_data.a", "connection": {"host": "h"}}}'},
        'main.tf.json:1:42: $.removed["connection"]: expected an argument or block of removed (from, lifecycle, '
        'provisioner), found "connection"',
        id="removed-connection",
    ),
]


@pytest.mark.parametrize(("files", "message"), NOT_OPENTOFU)
def test_opentofu_refuses_what_its_schema_has_not(tmp_path: Path, files: dict[str, Any], message: str) -> None:
    """Before: load_config(flavor="opentofu") read Terraform's arguments, and merged an override's action_trigger."""
    terraform = _load(tmp_path, files)
    for read in (lambda: load_config(tmp_path, flavor="opentofu"),
                 # Blocks Terraform's schema read, merged by OpenTofu's rules: read again by its schema.
                 lambda: merge_overrides(terraform.primary_blocks, terraform.overrides, flavor="opentofu")):
        with pytest.raises(ConfigFormatError) as info:
            read()
        assert str(info.value).replace(f"{tmp_path}/", "") == message


def test_opentofu_has_no_action_block(tmp_path: Path) -> None:
    """Before: an action block was read for OpenTofu. Now it is an unknown top-level name, as any other is."""
    files = {"main.tf.json": '{"action": {"local_command": {"t": {"config": {}}}}, "output": {"o": {"value": 1}}}'}
    terraform = _load(tmp_path, files)
    assert [b.block_type for b in terraform.blocks] == ["action", "output"]
    opentofu = load_config(tmp_path, flavor="opentofu")
    assert ([b.block_type for b in opentofu.blocks], [i.name for i in opentofu.ignored]) == (["output"], ["action"])
    with pytest.raises(ConfigFormatError) as info:
        load_config(tmp_path, flavor="opentofu", strict=True)
    assert str(info.value).replace(f"{tmp_path}/", "") == (
        "main.tf.json:1:2: $.action: expected one of the top-level block types (check, data, ephemeral, import, "
        'language, locals, module, moved, output, provider, removed, resource, terraform, variable), found "action"')
    with pytest.raises(ConfigFormatError) as info:
        merge_overrides(terraform.primary_blocks, [], flavor="opentofu")
    assert str(info.value).replace(f"{tmp_path}/", "") == (
        'main.tf.json:1:36: $.action["local_command"]["t"]: expected one of the top-level block types (check, data, '
        'ephemeral, import, language, locals, module, moved, output, provider, removed, resource, terraform, '
        'variable), found "action"')


@pytest.mark.parametrize(
    ("flavor", "message"),
    [
        pytest.param("tofu", "merge_overrides: flavor must be 'terraform' or 'opentofu', got 'tofu'", id="tofu"),
        pytest.param(None, "merge_overrides: flavor must be 'terraform' or 'opentofu', got None", id="None"),
    ],
)
def test_merge_overrides_refuses_an_unknown_flavor(flavor: Any, message: str) -> None:
    with pytest.raises(TypeError) as caught:
        merge_overrides([], [], flavor=flavor)
    assert str(caught.value) == message


@pytest.mark.parametrize(("files", "address", "body"), MERGES)
def test_override_merge(tmp_path: Path, files: dict[str, Any], address: str, body: dict[str, Any]) -> None:
    config = _load(tmp_path, files)
    assert _body(config, address) == body
    unmerged = load_config(tmp_path, merge_overrides=False)
    assert unmerged.blocks == config.primary_blocks
    assert [Path(b.file or "").name for b in config.overrides] == sorted(
        Path(b.file or "").name for b in config.overrides
    )


def test_terraform_required_providers_merge_per_provider(tmp_path: Path) -> None:
    config = _load(
        tmp_path,
        {
            "main.tf.json": {"terraform": [{"required_version": ">= 1.0"}, {"required_providers": {
                "aws": {"source": "hashicorp/aws"}, "null": {"source": "hashicorp/null"}}}]},
            "override.tf.json": {"terraform": {"required_providers": {"aws": {"source": "acme/aws"},
                                                                      "tls": {"source": "hashicorp/tls"}}}},
        },
    )
    providers: dict[str, Any] = {}
    for block in config.blocks_of("terraform"):
        for nested in block.blocks("required_providers"):
            providers.update(nested.body)
    assert providers == {
        "null": {"source": "hashicorp/null"},
        "aws": {"source": "acme/aws"},
        "tls": {"source": "hashicorp/tls"},
    }


def test_locals_are_merged_by_name_whichever_block_defines_them(tmp_path: Path) -> None:
    config = _load(
        tmp_path,
        {
            "main.tf.json": {"locals": [{"a": 1}, {"b": 2, "c": 3}]},
            "x_override.tf.json": {"locals": {"c": "over"}},
        },
    )
    assert config.locals == {"a": 1, "b": 2, "c": "over"}
    assert [b.body for b in config.blocks_of("locals")] == [{"a": 1}, {"b": 2, "c": "over"}]


def test_merged_block_keeps_the_base_place(tmp_path: Path) -> None:
    config = _load(
        tmp_path,
        {"main.tf.json": '{"output": {"o": {"value": 1}}}', "override.tf.json": '{\n\n"output": {"o": {"value": 2}}}'},
    )
    output = config.output("o")
    assert output is not None
    assert (Path(output.file or "").name, output.line, output.get("value")) == ("main.tf.json", 1, 2)


ERRORS = [
    pytest.param(
        {"main.tf.json": '{"output": {"o": {"value": 1}}}',
         "override.tf.json": '{\n  "resource": {"terraform_data": {"ghost": {"input": 1}}}\n}'},
        'override.tf.json:2:44: $.resource["terraform_data"]["ghost"]: expected a resource of that name in a primary '
        "(non-override) file to merge into (Terraform: Missing resource to override), found an override of "
        'resource "terraform_data" "ghost", which no primary file defines',
        id="missing-resource",
    ),
    pytest.param(
        {"main.tf.json": '{"output": {"o": {"value": 1}}}',
         "override.tf.json": '{"data": {"d": {"x": [{}]}}}'},
        'override.tf.json:1:22: $.data["d"]["x"][0]: expected a data source of that name in a primary (non-override) '
        "file to merge into (Terraform: Missing data resource to override), found an override of "
        'data "d" "x", which no primary file defines',
        id="missing-data-source-array-body",
    ),
    pytest.param(
        {"main.tf.json": '{"variable": {"a": {}}}', "b_override.tf.json": '{"variable": {"b": {}}}'},
        'b_override.tf.json:1:20: $.variable["b"]: expected a variable of that name in a primary (non-override) '
        "file to merge into (Terraform: Missing base variable declaration to override), found an override of "
        'variable "b", which no primary file defines',
        id="missing-variable",
    ),
    pytest.param(
        {"main.tf.json": '{"output": {"a": {"value": 1}}}', "override.tf.json": '{"output": {"b": {}}}'},
        'override.tf.json:1:18: $.output["b"]: expected a output of that name in a primary (non-override) file to '
        "merge into (Terraform: Missing base output definition to override), found an override of "
        'output "b", which no primary file defines',
        id="missing-output",
    ),
    pytest.param(
        {"main.tf.json": '{"locals": {"a": 1}}', "override.tf.json": '{"locals": {"a": 2, "z": 3}}'},
        'override.tf.json:1:21: $.locals["z"]: expected a local value of that name in a primary (non-override) file '
        "to merge into (Terraform: Missing base local value definition to override), found an override of "
        'local "z", which no primary file defines',
        id="missing-local",
    ),
    pytest.param(
        {"main.tf.json": '{"provider": {"aws": {}}}', "override.tf.json": '{"provider": {"aws": {"alias": "w"}}}'},
        'override.tf.json:1:22: $.provider["aws"]: expected a provider configuration of that name in a primary '
        "(non-override) file to merge into (Terraform: Missing base provider configuration for override), found "
        'an override of provider "aws" with alias "w", which no primary file defines',
        id="missing-aliased-provider",
    ),
    pytest.param(
        {"main.tf.json": '{"module": {"m": {"source": "./m"}}}', "override.tf.json": '{"module": {"n": {}}}'},
        'override.tf.json:1:18: $.module["n"]: expected a module call of that name in a primary (non-override) file '
        "to merge into (Terraform: Missing module call to override), found an override of module \"n\", which no "
        "primary file defines",
        id="missing-module",
    ),
    pytest.param(
        {"main.tf.json": '{"resource": {"terraform_data": {"a": {}, "b": {}}}}',
         "override.tf.json": '{"resource": {"terraform_data": {"b": {"depends_on": ["terraform_data.a"]}}}}'},
        'override.tf.json:1:55: $.resource["terraform_data"]["b"]["depends_on"][0]: expected no depends_on in an '
        "override block (Terraform: Unsupported override: the depends_on argument may not be overridden), found "
        'depends_on in an override of resource "terraform_data" "b"',
        id="depends-on-resource",
    ),
    pytest.param(
        {"main.tf.json": '{"output": {"o": {"value": 1}}}',
         "override.tf.json": '{"output": {"o": {"depends_on": ["terraform_data.a"]}}}'},
        'override.tf.json:1:34: $.output["o"]["depends_on"][0]: expected no depends_on in an override block '
        "(Terraform: Unsupported override: the depends_on argument may not be overridden), found depends_on in an "
        'override of output "o"',
        id="depends-on-output",
    ),
    pytest.param(
        {"main.tf.json": '{"output": {"o": {"value": 1}}}',
         "override.tf.json": '{"import": {"to": "terraform_data.a", "id": "x"}}'},
        "override.tf.json:1:12: $.import: expected import blocks only in primary files (Terraform: Cannot override "
        "'import' blocks), found a import block in an override file",
        id="import-block",
    ),
]


@pytest.mark.parametrize(("files", "message"), ERRORS)
def test_override_errors(tmp_path: Path, files: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigFormatError) as info:
        _load(tmp_path, files)
    assert str(info.value).replace(f"{tmp_path}/", "") == message


def test_check_removed_and_ephemeral_blocks_of_override_files_are_not_used(tmp_path: Path) -> None:
    config = _load(
        tmp_path,
        {
            "main.tf.json": {"output": {"o": {"value": 1}}},
            "override.tf.json": {"check": {"c": {"assert": {"condition": "${true}", "error_message": "x"}}},
                                 "removed": {"from": "terraform_data.gone"}},
        },
    )
    assert [b.block_type for b in config.blocks] == ["output"]
    assert [b.block_type for b in config.overrides] == ["check", "removed"]


def test_parse_config_reads_an_override_file() -> None:
    from plancheck.tfconfig import parse_config

    assert parse_config('{"output": {"o": {"sensitive": true}}}', override=True).output("o") is not None
    with pytest.raises(ConfigFormatError, match=r'expected a "value" argument \(required in an output block\)'):
        parse_config('{"output": {"o": {"sensitive": true}}}')


_NAMES = st.sampled_from(["a", "b", "c", "d"])
_VALUES = st.one_of(st.integers(-5, 5), st.text("xyz", max_size=3), st.booleans())
_OUTPUTS = st.dictionaries(_NAMES, st.fixed_dictionaries({"value": _VALUES}, optional={"description": st.text("d")}))


def _write_and_load(files: dict[str, Any]) -> Config:
    with tempfile.TemporaryDirectory() as d:
        return _load(Path(d), files)


@settings(max_examples=25, deadline=None)
@given(outputs=_OUTPUTS)
def test_an_empty_override_file_changes_nothing(outputs: dict[str, Any]) -> None:
    base = {"output": outputs} if outputs else {}
    plain = _write_and_load({"main.tf.json": base})
    merged = _write_and_load({"main.tf.json": base, "override.tf.json": {}})
    assert [b.body for b in merged.blocks] == [b.body for b in plain.blocks]


@settings(max_examples=25, deadline=None)
@given(
    outputs=_OUTPUTS.filter(bool),
    overrides=st.lists(st.tuples(st.sampled_from(["a", "m", "z", ""]), _VALUES), min_size=1, max_size=3),
)
def test_the_lexically_last_override_file_wins(outputs: dict[str, Any], overrides: list[tuple[str, Any]]) -> None:
    name = sorted(outputs)[0]
    files: dict[str, Any] = {"main.tf.json": {"output": outputs}}
    for prefix, value in overrides:
        file = f"{prefix}_override.tf.json" if prefix else "override.tf.json"
        files[file] = {"output": {name: {"value": value}}}
    config = _write_and_load(files)
    last = files[sorted(n for n in files if n != "main.tf.json")[-1]]["output"][name]["value"]
    output = config.output(name)
    assert output is not None
    assert output.get("value") == last
    assert output.get("description") == outputs[name].get("description")


@pytest.mark.parametrize(
    ("files", "secret"),
    [
        pytest.param(
            {"main.tf.json": {"variable": {"pw": {"default": "base-secret", "sensitive": True}}},
             "override.tf.json": {"variable": {"pw": {"default": "over-secret"}}}},
            "base-secret",
            id="overridden-default-of-a-sensitive-variable",
        ),
        pytest.param(
            {"main.tf.json": {"variable": {"pw": {"default": "base-secret"}}},
             "override.tf.json": {"variable": {"pw": {"sensitive": True}}}},
            "base-secret",
            id="made-sensitive-by-an-override",
        ),
        pytest.param(
            {"main.tf.json": {"output": {"o": {"value": "out-secret", "sensitive": True}}},
             "override.tf.json": {"output": {"o": {"value": "other"}}}},
            "out-secret",
            id="overridden-value-of-a-sensitive-output",
        ),
    ],
)
def test_secrets_cover_every_definition(tmp_path: Path, files: dict[str, Any], secret: str) -> None:
    config = _load(tmp_path, files)
    assert secret in config.secrets
    assert config.secrets.scrub(f"value {secret}") == "value (sensitive)"
