"""The reader: a faithful HCL JSON parser (order, duplicates, exact numbers, locations) and Terraform's blocks."""

from __future__ import annotations

import json
import pickle
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck.tfconfig import (
    Block,
    Config,
    ConfigFormatError,
    IgnoredProperty,
    config_from_dict,
    load_config,
    load_config_for_test,
    parse_config,
)
from plancheck.tfconfig._json_reader import OBJECT, Source, node_to_python, parse_json

# -- the JSON layer -------------------------------------------------------------------------------

MALFORMED: list[tuple[str, str, str]] = [
    ("empty-file", "", "m.tf.json:1:1: $: expected a JSON object, found an empty file"),
    ("only-whitespace", " \n ", "m.tf.json:2:2: $: expected a JSON object, found only whitespace"),
    ("native-syntax", "terraform {\n}\n", "m.tf.json:1:1: $: expected a JSON value, found 'terraform'"),
    (
        "unclosed-object",
        '{"a": 1',
        "m.tf.json:1:8: $.a: expected ',' or '}' after an object property, found the end of the file",
    ),
    ("missing-colon", '{"a" 1}', "m.tf.json:1:6: $.a: expected ':' after a property name, found '1'"),
    (
        "trailing-comma",
        '{"a": 1,}',
        "m.tf.json:1:8: $.a: expected another property after ',' (Terraform: Trailing comma in object), "
        "found a trailing comma",
    ),
    (
        "trailing-comma-array",
        '{"a": [1, 2 ,\n]}',
        "m.tf.json:1:13: $.a[1]: expected another element after ',' (Terraform: Trailing comma in array), "
        "found a trailing comma",
    ),
    ("unquoted-key", "{a: 1}", "m.tf.json:1:2: $: expected a property name string or '}', found 'a'"),
    (
        "array-missing-comma",
        '{"a": [1 2]}',
        "m.tf.json:1:10: $.a[0]: expected ',' or ']' after an array element, found '2'",
    ),
    ("bad-literal", '{"a": {"b": tru}}', "m.tf.json:1:13: $.a[\"b\"]: expected a JSON value, found 'tru'"),
    (
        "bare-reference",
        '{"output": {"x": {"value": aws_instance.example}}}',
        'm.tf.json:1:28: $.output["x"]["value"]: expected a JSON value, found \'aws_instance.example\'',
    ),
    (
        "leading-zero",
        '{"a": 01}',
        "m.tf.json:1:8: $.a: expected ',' or '}' after an object property, found '1'",
    ),
    (
        "unterminated-string",
        '{"a": "abc',
        "m.tf.json:1:7: $.a: expected a closing '\"' for the string that "
        "starts here, found the end of the file",
    ),
    (
        "raw-newline-in-string",
        '{\n  "a": "x\ny"\n}',
        "m.tf.json:2:10: $.a: expected an escaped control "
        "character in a string (such as \\n), found a raw control character U+000A",
    ),
    (
        "bad-escape",
        '{"a": "\\x"}',
        "m.tf.json:1:8: $.a: expected a valid escape sequence in a string, found '\\\\x'",
    ),
    (
        "bad-unicode-escape",
        '{"a": "\\u12"}',
        "m.tf.json:1:9: $.a: expected 4 hex digits after \\u in a string, found 'u12\"}'",
    ),
    (
        "trailing-data",
        "{}\n}",
        "m.tf.json:2:1: $: expected the end of the file after the root value, found '}'",
    ),
    (
        "byte-order-mark",
        "\ufeff{}",
        "m.tf.json:1:1: $: expected a JSON value (Terraform does not accept a UTF-8 "
        "byte order mark), found a byte order mark",
    ),
    ("nan", '{"a": NaN}', "m.tf.json:1:7: $.a: expected a JSON value, found 'NaN'"),
    (
        "deep-location",
        '{"resource": {"t": {"a": {"tags": [{"k": }]}}}}',
        'm.tf.json:1:42: $.resource["t"]["a"]["tags"][0]["k"]: expected a JSON value, found \'}\'',
    ),
]


@pytest.mark.parametrize(
    ("text", "message"), [(t, m) for _, t, m in MALFORMED], ids=[i for i, _, _ in MALFORMED]
)
def test_malformed_json_is_located(text: str, message: str) -> None:
    with pytest.raises(ConfigFormatError) as info:
        parse_config(text, filename="m.tf.json")
    assert str(info.value) == message
    assert info.value.file == "m.tf.json"
    assert (info.value.line, info.value.column) == tuple(int(x) for x in message.split(":")[1:3])


def test_invalid_utf8_is_located() -> None:
    with pytest.raises(ConfigFormatError) as info:
        parse_config(b'{\n  "a": "\xff"}', filename="m.tf.json")
    assert str(info.value) == "m.tf.json:2:9: $: expected UTF-8 text, found the byte 0xff"


def test_duplicates_order_and_exact_numbers_are_kept() -> None:
    text = '{"b": 1, "a": 2.50, "b": [3], "n": 1e400, "i": 123456789012345678901234567890, "s": "\\u00e9\\ud83e\\udd37"}'
    node = parse_json(text, Source(None, text))
    assert node.kind == OBJECT
    assert [(k, v.value if v.kind > 1 else None) for k, _, v in node.value][:2] == [
        ("b", 1),
        ("a", Decimal("2.50")),
    ]
    assert [k for k, _, _ in node.value] == ["b", "a", "b", "n", "i", "s"]
    value = node_to_python(node)
    assert value == {
        "b": [1, 3],
        "a": Decimal("2.50"),
        "n": Decimal("1e400"),
        "i": 123456789012345678901234567890,
        "s": "é🤷",
    }
    assert list(value) == ["b", "a", "n", "i", "s"]


def test_ten_thousand_levels_parse() -> None:
    text = '{"locals": {"deep": ' + "[" * 10_000 + "1" + "]" * 10_000 + "}}"
    value = parse_config(text).locals["deep"]
    for _ in range(10_000):
        value = value[0]
    assert value == 1


def test_deep_malformed_document_gives_a_located_error() -> None:
    text = "[" * 10_000 + "}"
    with pytest.raises(ConfigFormatError) as info:
        parse_config(text, filename="d.tf.json")
    assert info.value.column == 10_001
    assert info.value.location.startswith("$[0][0][0]")


def _big_config(n: int) -> str:
    resources = {
        f"web{i}": {
            "ami": "ami-123",
            "count": 3,
            "tags": {"Name": f"web ${{var.env}} {i}", "Cost": 1.5},
            "depends_on": ["aws_vpc.main"],
            "lifecycle": {"ignore_changes": ["tags"]},
            "provisioner": [{"local-exec": {"command": "echo hi"}}],
        }
        for i in range(n)
    }
    return json.dumps({"resource": {"aws_instance": resources}}, indent=2)


def test_a_megabyte_config_reads_whole() -> None:
    # Speed is measured by benchmarks/bench_tfconfig.py, never by a timed unit test.
    text = _big_config(2_200)
    assert len(text) > 1_000_000
    config = parse_config(text)
    assert len(config.resources("aws_instance")) == 2_200


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.text(max_size=8)
        | st.decimals(allow_nan=False, allow_infinity=False).map(lambda d: Decimal(str(d))),
        lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c, max_size=4),
        max_leaves=25,
    )
)
def test_the_parser_agrees_with_the_standard_library(value: Any) -> None:
    text = json.dumps(value, default=str) if not _has_decimal(value) else _dumps(value)
    expected = json.loads(text, parse_float=Decimal, parse_int=int)
    assert node_to_python(parse_json(text, Source(None, text))) == expected


def _has_decimal(value: Any) -> bool:
    return "Decimal" in repr(value)


def _dumps(value: Any) -> str:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k) + ":" + _dumps(v) for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_dumps(v) for v in value) + "]"
    return json.dumps(value)


# -- blocks ---------------------------------------------------------------------------------------

SPEC_EXAMPLE = """{
  "//": "generated",
  "resource": {
    "aws_instance": {
      "web": {
        "//": "a comment",
        "ami": "${var.ami}",
        "tags": {"//": "data, not a comment", "Name": "web"},
        "lifecycle": {"create_before_destroy": true, "ignore_changes": ["tags"]},
        "provisioner": [{"local-exec": {"command": "echo ${self.id}"}}, {"file": {"source": "a",
                        "destination": "b", "connection": {"type": "ssh", "host": "${self.public_ip}"}}}],
        "dynamic": {"ebs_block_device": {"for_each": "${var.disks}", "content": {"size": "${ebs_block_device.value}"}}}
      }
    }
  },
  "provider": {"aws": [{"region": "us-east-1"}, {"alias": "usw1", "region": "us-west-1"}]}
}"""


def test_blocks_keep_their_labels_locations_and_bodies() -> None:
    config = parse_config(SPEC_EXAMPLE, filename="main.tf.json")
    web = config.resource("aws_instance", "web")
    assert isinstance(web, Block)
    assert (web.block_type, web.labels, web.name, web.address) == (
        "resource",
        ("aws_instance", "web"),
        "web",
        "aws_instance.web",
    )
    assert web.location == "main.tf.json:5:7"
    assert web.json_path.to_text() == 'resource["aws_instance"]["web"]'
    assert web.names() == ("ami", "tags", "lifecycle", "provisioner", "dynamic")
    assert web.body["tags"] == {"//": "data, not a comment", "Name": "web"}
    assert [(b.block_type, b.labels) for b in web.blocks()] == [
        ("lifecycle", ()),
        ("provisioner", ("local-exec",)),
        ("provisioner", ("file",)),
        ("dynamic", ("ebs_block_device",)),
    ]
    assert web.blocks("provisioner")[1].blocks("connection")[0].get("type") == "ssh"
    assert [r.text for r in web.references()] == ["var.ami", "self.id", "self.public_ip", "var.disks"]
    assert [b.address for b in config.providers("aws")] == ["provider.aws", "provider.aws.usw1"]
    assert config.provider("aws", "usw1").location == "main.tf.json:16:49"
    assert config.ignored == ()


def test_body_is_a_fresh_copy_each_time() -> None:
    config = parse_config(SPEC_EXAMPLE)
    web = config.resource("aws_instance", "web")
    web.body["tags"]["Name"] = "changed"
    assert web.body["tags"]["Name"] == "web"
    with pytest.raises(AttributeError):
        web.labels = ()  # type: ignore[misc]


def test_repeated_nested_blocks_merge_into_a_list() -> None:
    config = parse_config(
        '{"resource": {"aws_security_group": {"sg": {"ingress": {"from_port": 80}, '
        '"ingress": [{"from_port": 443}]}}}}'
    )
    sg = config.resource("aws_security_group", "sg")
    assert sg.body == {"ingress": [{"from_port": 80}, {"from_port": 443}]}
    assert sg.get("ingress") == [{"from_port": 80}, {"from_port": 443}]
    assert sg.value_at("ingress[1].from_port") == 443


def test_label_levels_can_be_arrays_and_bodies_arrays() -> None:
    text = '{"resource": [{"t": [{"a": {"x": 1}}, {"b": [{"x": 2}]}]}], "locals": [{"p": 1}, {"q": 2}]}'
    config = parse_config(text, filename="f.tf.json")
    assert [(b.address, b.location, b.json_path.to_text()) for b in config.blocks] == [
        ("t.a", "f.tf.json:1:23", 'resource[0]["t"][0]["a"]'),
        ("t.b", "f.tf.json:1:46", 'resource[0]["t"][1]["b"][0]'),
        ("locals", "f.tf.json:1:72", "locals[0]"),
        ("locals", "f.tf.json:1:82", "locals[1]"),
    ]
    assert config.locals == {"p": 1, "q": 2}


def test_root_may_be_an_array_of_objects() -> None:
    config = parse_config('[{"variable": {"a": {}}}, {"variable": {"b": {}}}]')
    assert list(config.variables) == ["a", "b"]


def test_unknown_top_level_properties_are_kept_aside_or_refused() -> None:
    text = '{"atlas": {"name": "x"}, "foo": "bar", "locals": {"a": 1}}'
    config = parse_config(text, filename="old.tf.json")
    assert config.ignored == (
        IgnoredProperty("atlas", location="old.tf.json:1:2"),
        IgnoredProperty("foo", location="old.tf.json:1:26"),
    )
    with pytest.raises(
        ConfigFormatError, match=r"^old\.tf\.json:1:2: \$\.atlas: expected one of the top-level"
    ):
        parse_config(text, filename="old.tf.json", strict=True)


BLOCK_ERRORS: list[tuple[str, str, str]] = [
    (
        "resource-name-level-string",
        '{\n  "resource": {\n    "aws_instance": "web"\n  }\n}',
        'main.tf.json:3:21: $.resource["aws_instance"]: expected an object of resource names (resource "aws_instance" '
        "needs 1 more label: name), found a string",
    ),
    (
        "root-string",
        '"x"',
        "main.tf.json:1:1: $: expected a JSON object of top-level blocks (or an array of such "
        "objects), found a string",
    ),
    (
        "root-array-with-number",
        "[{}, 1]",
        "main.tf.json:1:6: $[1]: expected a JSON object of top-level blocks "
        "(or an array of such objects), found a number",
    ),
    (
        "duplicate-attribute",
        '{"variable": {"x": {"default": 1,\n "default": 2}}}',
        'main.tf.json:2:2: $.variable["x"]["default"]: expected each argument of variable "x" once (Terraform: Duplicate argument), found "default" again '
        "(first set at 1:21)",
    ),
    (
        "duplicate-key-in-expression",
        '{"output": {"o": {"value": {"a": 1, "a": 2}}}}',
        'main.tf.json:1:37: $.output["o"]["value"]["a"]: expected unique property names in an object value (Terraform: Duplicate object attribute), found "a" again '
        "(first at 1:29)",
    ),
    (
        "duplicate-resource-across-properties",
        '{"resource": {"t": {"a": {}}},\n"resource": {"t": {"a": {}}}}',
        'main.tf.json:2:25: $.resource["t"]["a"]: expected each resource defined once, found a second resource "t" "a" '
        "(first defined at main.tf.json:1:26)",
    ),
    (
        "template-in-key",
        '{"locals": {"m": {"${var.k": 1}}}',
        "main.tf.json:1:20: $.locals[\"m\"][\"${var.k\"]: expected a valid string template, found unclosed '${': no '}' "
        "ends this interpolation, at character 1 of the string",
    ),
    (
        "import-to-list",
        '{"import": {"to": ["a.b"], "id": "x"}}',
        'main.tf.json:1:19: $.import["to"]: expected a resource address string such as "aws_instance.web", found an '
        "array of 1 element",
    ),
]


@pytest.mark.parametrize(
    ("text", "message"), [(t, m) for _, t, m in BLOCK_ERRORS], ids=[i for i, _, _ in BLOCK_ERRORS]
)
def test_structure_errors_are_located(text: str, message: str) -> None:
    with pytest.raises(ConfigFormatError) as info:
        parse_config(text, filename="main.tf.json")
    assert str(info.value) == message


def test_comments_in_locals_and_at_the_root_are_ignored() -> None:
    config = parse_config('{"//": 1, "locals": {"//": "a", "//": "b", "x": 1}}')
    assert config.locals == {"x": 1}


def test_format_errors_pickle_with_their_location() -> None:
    with pytest.raises(ConfigFormatError) as info:
        parse_config('{"resource": 1}', filename="p.tf.json")
    again = pickle.loads(pickle.dumps(info.value))
    assert (again.file, again.line, again.column, str(again)) == ("p.tf.json", 1, 14, str(info.value))
    assert info.value.with_source("q.tf.json").line == 1


def test_config_value_semantics() -> None:
    a = parse_config(SPEC_EXAMPLE, filename="x.tf.json")
    b = parse_config(SPEC_EXAMPLE, filename="x.tf.json")
    assert a == b
    assert hash(a) == hash(b)
    assert a != parse_config(SPEC_EXAMPLE, filename="y.tf.json")
    assert a.__eq__(1) is NotImplemented
    assert repr(a) == "<Config resource=1, provider=2, files=['x.tf.json']>"
    assert repr(a.blocks[0]) == "Block('resource', ('aws_instance', 'web'), location='x.tf.json:5:7')"
    with pytest.raises(AttributeError):
        a.foo = 1  # type: ignore[attr-defined]


def test_sensitive_defaults_are_secrets() -> None:
    config = parse_config(
        '{"variable": {"pw": {"default": "hunter2", "sensitive": true}, "user": {"default": "bob"}},'
        ' "output": {"o": {"value": {"k": "s3cr3t"}, "sensitive": "true"}}}'
    )
    assert "hunter2" in config.secrets
    assert "s3cr3t" in config.secrets
    assert "bob" not in config.secrets
    assert config.is_sensitive_variable("pw")
    assert not config.is_sensitive_variable("user")


# -- directories ----------------------------------------------------------------------------------


def _write(directory: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (directory / name).write_text(text, encoding="utf-8")


def test_directory_flavors_choose_files(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "a.tf.json": '{"variable": {"a_tf": {}}}',
            "a.tofu.json": '{"variable": {"a_tofu": {}}}',
            "b.tf.json": '{"variable": {"b_tf": {}}}',
            "c.tofu.json": '{"variable": {"c_tofu": {}}}',
            "native.tf": 'variable "n" {}',
            "notes.json": "not read",
        },
    )
    terraform = load_config(tmp_path)
    assert list(terraform.variables) == ["a_tf", "b_tf"]
    assert [Path(f).name for f in terraform.files] == ["a.tf.json", "b.tf.json"]
    assert sorted(Path(f).name for f in terraform.skipped_files) == [
        "a.tofu.json",
        "c.tofu.json",
        "native.tf",
    ]
    tofu = load_config(tmp_path, flavor="opentofu")
    assert list(tofu.variables) == ["a_tofu", "b_tf", "c_tofu"]
    assert sorted(Path(f).name for f in tofu.skipped_files) == ["a.tf.json", "native.tf"]
    with pytest.raises(ValueError, match=r"^flavor must be 'terraform' or 'opentofu', got 'tofu'$"):
        load_config(tmp_path, flavor="tofu")  # type: ignore[arg-type]


#: Terraform 1.14+/1.15 arguments OpenTofu's schema has not, read from text and from a dict: each reader refuses them
#: for OpenTofu as it refuses a misspelt argument, and reads them for Terraform.
_TERRAFORM_ONLY = {"resource": {"terraform_data": {"a": {"lifecycle": {
    "action_trigger": {"events": ["after_create"], "actions": ["action.t.one"]}}}}},
    "output": {"o": {"value": 1, "type": "number"}}}


@pytest.mark.parametrize(
    ("read", "message"),
    [
        pytest.param(lambda flavor: parse_config(json.dumps(_TERRAFORM_ONLY), flavor=flavor),
                     '1:54: $.resource["terraform_data"]["a"]["lifecycle"]["action_trigger"]: expected an argument or '
                     "block of lifecycle (create_before_destroy, destroy, enabled, ignore_changes, postcondition, "
                     'precondition, prevent_destroy, replace_triggered_by), found "action_trigger"', id="parse_config"),
        pytest.param(lambda flavor: config_from_dict({"output": _TERRAFORM_ONLY["output"]}, flavor=flavor),
                     '$.output["o"]["type"]: expected an argument or block of output "o" (depends_on, deprecated, '
                     'description, ephemeral, precondition, sensitive, value), found "type"', id="config_from_dict"),
    ],
)
def test_every_reader_reads_by_the_flavor_schema(read: Any, message: str) -> None:
    """Before: parse_config and config_from_dict took no flavor (OpenTofu's text was read as Terraform's)."""
    assert read("terraform").blocks
    with pytest.raises(ConfigFormatError) as caught:
        read("opentofu")
    assert str(caught.value) == message


def test_override_files_are_merged_and_kept_apart(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "main.tf.json": '{"variable": {"region": {"default": "eu-west-1"}}}',
            "main_override.tf.json": '{"variable": {"region": {"default": "us-east-1"}}}',
            "override.tf.json": '{"variable": {"region": {"type": "string"}}}',
        },
    )
    config = load_config(tmp_path)
    assert config.variable("region").body == {"default": "us-east-1", "type": "string"}
    assert [b.get("default") for b in config.primary_blocks] == ["eu-west-1"]
    unmerged = load_config(tmp_path, merge_overrides=False)
    assert unmerged.variable("region").get("default") == "eu-west-1"
    assert unmerged.overrides == config.overrides
    assert [(b.address, Path(b.file or "").name) for b in config.overrides] == [
        ("var.region", "main_override.tf.json"),
        ("var.region", "override.tf.json"),
    ]


def test_duplicates_across_files_are_errors(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {"a.tf.json": '{"output": {"o": {"value": 1}}}', "b.tf.json": '{\n"output": {"o": {"value": 2}}}'},
    )
    with pytest.raises(ConfigFormatError) as info:
        load_config(tmp_path)
    assert str(info.value) == (
        f'{tmp_path / "b.tf.json"}:2:17: $.output["o"]: expected each output defined once, found a second output "o" '
        f"(first defined at {tmp_path / 'a.tf.json'}:1:18)"
    )


def test_unreadable_file_is_a_format_error(tmp_path: Path) -> None:
    # It said "found FileNotFoundError: No such file or directory": the class name the command line's readers never say.
    with pytest.raises(ConfigFormatError) as info:
        load_config(tmp_path / "missing.tf.json")
    assert str(info.value) == f"{tmp_path / 'missing.tf.json'}: $: expected a readable file, found No such file or directory"


def test_config_from_a_file(tmp_path: Path) -> None:
    _write(tmp_path, {"x.tf.json": SPEC_EXAMPLE})
    config = load_config(tmp_path / "x.tf.json")
    assert isinstance(config, Config)
    assert config.files == (str(tmp_path / "x.tf.json"),)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        pytest.param(
            '{"resource": {"t": {"a": {"input": 1,\n "input": 2}}}}',
            'main.tf.json:2:2: $.resource["t"]["a"]["input"]: expected each argument of resource "t" "a" once '
            '(Terraform: Duplicate argument), found "input" again (first set at 1:27)',
            id="argument-in-an-open-body",
        ),
        pytest.param(
            '{"resource": {"t": {"a": {"input": {"k": 1,\n "k": 2}}}}}',
            'main.tf.json:2:2: $.resource["t"]["a"]["input"]["k"]: expected unique property names in an object value '
            '(Terraform: Duplicate object attribute), found "k" again (first at 1:37)',
            id="key-of-an-object-in-an-open-body",
        ),
        pytest.param(
            '{"resource": {"t": {"a": {"setting": {"x": 1},\n "setting": 5}}}}',
            'main.tf.json:2:2: $.resource["t"]["a"]["setting"]: expected each argument of resource "t" "a" once '
            '(Terraform: Duplicate argument), found "setting" again (first set at 1:27)',
            id="block-then-scalar",
        ),
    ],
)
def test_a_repeated_name_is_an_argument_defined_twice(tmp_path: Path, body: str, message: str) -> None:
    (tmp_path / "main.tf.json").write_text(body, encoding="utf-8")
    with pytest.raises(ConfigFormatError) as info:
        load_config(tmp_path / "main.tf.json")
    assert str(info.value).replace(str(tmp_path) + "/", "") == message


@pytest.mark.parametrize(
    "body",
    [
        pytest.param('{"resource": {"t": {"a": {"setting": {"x": 1}, "setting": {"x": 2}}}}}', id="two-blocks"),
        pytest.param('{"resource": {"t": {"a": {"setting": [{"x": 1}], "setting": {"x": 2}}}}}', id="array-and-block"),
        pytest.param('{"resource": {"t": {"a": {"setting": {"in": {"y": 1}, "in": {"y": 2}}}}}}', id="nested-blocks"),
    ],
)
def test_a_repeated_name_that_may_be_a_nested_block_is_kept(tmp_path: Path, body: str) -> None:
    (tmp_path / "main.tf.json").write_text(body, encoding="utf-8")
    assert len(load_config(tmp_path / "main.tf.json").resources()) == 1



@pytest.mark.parametrize(("read", "message"), [
    pytest.param(lambda d: load_config(d, strict="no"), "load_config: strict must be a bool, got str", id="load_config-strict"),
    pytest.param(lambda d: load_config(d, merge_overrides=0), "load_config: merge_overrides must be a bool, got int",
                 id="load_config-merge_overrides"),
    pytest.param(lambda d: load_config_for_test(d, strict="false"), "load_config: strict must be a bool, got str",
                 id="load_config_for_test-strict"),
    pytest.param(lambda d: parse_config("{}", strict=None), "parse_config: strict must be a bool, got NoneType",
                 id="parse_config-strict"),
    pytest.param(lambda d: parse_config("{}", override="yes"), "parse_config: override must be a bool, got str",
                 id="parse_config-override"),
    pytest.param(lambda d: config_from_dict({}, strict="no"), "config_from_dict: strict must be a bool, got str",
                 id="config_from_dict-strict"),
])
def test_a_flag_that_is_no_bool_is_a_type_error(tmp_path: Path, read: Any, message: str) -> None:
    """Any truthy value was taken as True: strict="no" read the module strictly, as Plan(allow_errored="no") is refused."""
    with pytest.raises(TypeError) as info:
        read(tmp_path)
    assert str(info.value) == message
