"""Errors are placed where Terraform places them (issue #19 item 4), with the other definition's place named.

Terraform places a block at its body's ``{`` (or at the ``[`` of an array of bodies, shared by all of
them), a trailing comma at the comma, a repeated property at its second name. The differential suite
(``test_tfconfig_differential.py``) compares these with Terraform's recorded diagnostics; this table
pins the library's messages.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from plancheck.tfconfig import ConfigFormatError, load_config, parse_config

LOCATIONS = [
    pytest.param(
        '{"resource": {"t": {\n  "a": [\n    {"x": 1},\n    {"x": 2}\n  ]\n}}}',
        'm.tf.json:2:8: $.resource["t"]["a"][1]: expected each resource defined once, found a second resource '
        '"t" "a" (first defined at m.tf.json:2:8)',
        id="duplicate-labels-array-of-bodies-at-the-shared-bracket",
    ),
    pytest.param(
        '{"output": {\n  "o": {"value": 1}},\n "output": {\n  "o": {"value": 2}}}',
        'm.tf.json:4:8: $.output["o"]: expected each output defined once, found a second output "o" '
        "(first defined at m.tf.json:2:8)",
        id="duplicate-output-at-the-second-body",
    ),
    pytest.param(
        '{"resource": {"t": {"a": {\n  "lifecycle": {},\n  "lifecycle": {}}}}}',
        'm.tf.json:3:16: $.resource["t"]["a"]["lifecycle"]: expected at most one lifecycle block in a resource '
        "block (Terraform: Duplicate lifecycle block), found a second lifecycle block (first at 2:16)",
        id="repeated-lifecycle",
    ),
    pytest.param(
        '{"resource": {"t": {"a": {"connection": [{}, {}]}}}}',
        'm.tf.json:1:41: $.resource["t"]["a"]["connection"][1]: expected at most one connection block in a '
        "resource block (Terraform: Duplicate connection block), found a second connection block (first at 1:41)",
        id="repeated-connection",
    ),
    pytest.param(
        '{"output": {"o": {\n  "value": [1, 2,]}}}',
        'm.tf.json:2:17: $.output["o"]["value"][1]: expected another element after \',\' (Terraform: Trailing '
        "comma in array), found a trailing comma",
        id="trailing-comma-array-at-the-comma",
    ),
    pytest.param(
        '{"output": {"o": {\n  "value": 1,\n}}}',
        'm.tf.json:2:13: $.output["o"]["value"]: expected another property after \',\' (Terraform: Trailing '
        "comma in object), found a trailing comma",
        id="trailing-comma-object-at-the-comma",
    ),
    pytest.param(
        '{"variable": {"v": {\n  "default": {"k": 1, "k": 2}}}}',
        'm.tf.json:2:23: $.variable["v"]["default"]["k"]: expected unique property names in an object value '
        '(Terraform: Duplicate object attribute), found "k" again (first at 2:15)',
        id="duplicate-key-in-variable-default",
    ),
    pytest.param(
        '{"output": {"o": {"value": {\n  "a": 1,\n  "${\\"a\\"}": 2}}}}',
        'm.tf.json:3:3: $.output["o"]["value"]["${\\"a\\"}"]: expected unique property names in an object value '
        '(Terraform: Duplicate object attribute), found "${"a"}" again (first at 2:3)',
        id="key-template-evaluating-to-a-key-given-before",
    ),
    pytest.param(
        '{"output": {"o": {"value": "${1 + }"}}}',
        'm.tf.json:1:35: $.output["o"]["value"]: expected a valid string template, found expected the start of an '
        "expression before '}', at character 7 of the string",
        id="dangling-operator",
    ),
    pytest.param(
        '{"output": {"o": {"value": "a ${} b"}}}',
        'm.tf.json:1:33: $.output["o"]["value"]: expected a valid string template, found expected the start of an '
        "expression before '}', at character 5 of the string",
        id="empty-interpolation",
    ),
    pytest.param(
        '{"output": {"o": {"value": "\\u00e9\\n ${1 + }"}}}',
        'm.tf.json:1:44: $.output["o"]["value"]: expected a valid string template, found expected the start of an '
        "expression before '}', at character 10 of the string",
        id="template-error-column-counts-escapes-as-written",
    ),
    pytest.param(
        '{"resource": {"t": null}}',
        'm.tf.json:1:20: $.resource["t"]: expected an object of resource names (resource "t" needs 1 more label: '
        "name), found null",
        id="null-where-labels-are-expected",
    ),
]


@pytest.mark.parametrize(("text", "message"), LOCATIONS)
def test_error_location(text: str, message: str) -> None:
    with pytest.raises(ConfigFormatError) as info:
        parse_config(text, filename="m.tf.json")
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("text", "addresses"),
    [
        pytest.param('{"resource": {"t": {"skip": null, "a": {}}}}', ["t.a"], id="null-resource-body"),
        pytest.param('{"locals": null, "terraform": null, "output": {"o": null}}', [], id="null-unlabelled-and-output"),
        pytest.param('{"resource": {"t": {"a": {"lifecycle": null, "connection": null}}}}', ["t.a"], id="null-nested"),
        pytest.param('{"variable": {"v": {"default": {"$${x}": 1, "${x}": 2}}}}', ["var.v"], id="escaped-key-literal"),
        pytest.param('{"output": {"o": {"value": {"$${x}": 1, "${x}": 2}}}}', ["output.o"], id="escaped-key-differs"),
    ],
)
def test_accepted_as_terraform_accepts(text: str, addresses: list[str]) -> None:
    assert [b.address for b in parse_config(text).blocks] == addresses


def test_duplicate_across_files_names_both_files(tmp_path: Path) -> None:
    (tmp_path / "a.tf.json").write_text('{"variable": {"x": {}}}', encoding="utf-8")
    (tmp_path / "b.tf.json").write_text('{\n  "variable": {\n    "x": {"default": 1}}}', encoding="utf-8")
    with pytest.raises(ConfigFormatError) as info:
        load_config(tmp_path)
    assert (Path(info.value.file or "").name, info.value.line, info.value.column) == ("b.tf.json", 3, 10)
    assert str(info.value).endswith(f"(first defined at {tmp_path / 'a.tf.json'}:1:20)")
