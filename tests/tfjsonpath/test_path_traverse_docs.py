"""Every example of terraform-plugin-testing's "Terraform JSON Paths" page (tfjson-paths), with its JSON.

Each row: the JSON the page shows, the path the page builds (in Go's builder style), the
value the page says the path matches, and the two text forms of that path.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tfjsonpath import New, Path, Traverse

PERSON = """
{
  "first_name": "John",
  "last_name": "Doe",
  "age": 18,
  "street_address": "123 Terraform Dr.",
  "phone_numbers": [
    {"mobile": "111-111-1111"},
    {"home": "222-222-2222"}
  ]
}
"""
ROOT_ATTRIBUTE = '{"example_root_attribute": "example-value"}'
ROOT_BLOCK = '{"example_root_block": [{}]}'
AGGREGATES = """
{
  "root_map_attribute": {"example-key": "map-value"},
  "root_list_attribute": ["list-value1", "list-value2"],
  "root_set_attribute": ["set-value1", "set-value2"]
}
"""
LIST_NESTED_ATTRIBUTE = '{"root_list_attribute": [{"nested_string_attribute": "value"}]}'
MAP_NESTED_ATTRIBUTE = '{"root_map_attribute": {"example-key": {"nested_string_attribute": "value"}}}'
SET_NESTED_ATTRIBUTE = '{"root_set_attribute": [{"nested_string_attribute": "value"}]}'
SINGLE_NESTED_ATTRIBUTE = '{"root_grouped_attributes": {"nested_string_attribute": "value"}}'
LIST_BLOCK = """
{
  "root_list_block": [
    {
      "block_string_attribute": "value1",
      "nested_list_block": [{"nested_block_string_attribute": "value2"}]
    }
  ]
}
"""
SET_BLOCK = '{"root_set_block": [{"block_string_attribute": "value1"}]}'
# The page shows the schema of this example but no JSON; this is the state that schema gives.
SINGLE_BLOCK = """
{
  "root_single_block": {
    "block_string_attribute": "value1",
    "nested_single_block": {"nested_block_string_attribute": "value2"}
  }
}
"""

DOC_EXAMPLES = [
    # Building Paths
    pytest.param(PERSON, New("first_name"), "John", "first_name", "first_name", id="first_name"),
    pytest.param(
        PERSON,
        New("phone_numbers").AtSliceIndex(1).AtMapKey("home"),
        "222-222-2222",
        "phone_numbers.1.home",
        'phone_numbers[1]["home"]',
        id="phone_numbers-home",
    ),
    # Building Attribute Paths
    pytest.param(
        ROOT_ATTRIBUTE,
        New("example_root_attribute"),
        "example-value",
        "example_root_attribute",
        "example_root_attribute",
        id="example_root_attribute",
    ),
    pytest.param(
        ROOT_BLOCK,
        New("example_root_block"),
        [{}],
        "example_root_block",
        "example_root_block",
        id="example_root_block",
    ),
    # Building Aggregate Type Attribute Paths
    pytest.param(
        AGGREGATES,
        New("root_map_attribute").AtMapKey("example-key"),
        "map-value",
        "root_map_attribute.example-key",
        'root_map_attribute["example-key"]',
        id="aggregate-map",
    ),
    pytest.param(
        AGGREGATES,
        New("root_list_attribute").AtSliceIndex(0),
        "list-value1",
        "root_list_attribute.0",
        "root_list_attribute[0]",
        id="aggregate-list",
    ),
    pytest.param(
        AGGREGATES,
        New("root_set_attribute").AtSliceIndex(1),
        "set-value2",
        "root_set_attribute.1",
        "root_set_attribute[1]",
        id="aggregate-set",
    ),
    # Building List Nested Attributes Paths
    pytest.param(
        LIST_NESTED_ATTRIBUTE,
        New("root_list_attribute"),
        [{"nested_string_attribute": "value"}],
        "root_list_attribute",
        "root_list_attribute",
        id="list-nested-attribute",
    ),
    pytest.param(
        LIST_NESTED_ATTRIBUTE,
        New("root_list_attribute").AtSliceIndex(0),
        {"nested_string_attribute": "value"},
        "root_list_attribute.0",
        "root_list_attribute[0]",
        id="list-nested-attribute-element",
    ),
    pytest.param(
        LIST_NESTED_ATTRIBUTE,
        New("root_list_attribute").AtSliceIndex(0).AtMapKey("nested_string_attribute"),
        "value",
        "root_list_attribute.0.nested_string_attribute",
        'root_list_attribute[0]["nested_string_attribute"]',
        id="list-nested-attribute-string",
    ),
    # Building Map Nested Attributes Paths
    pytest.param(
        MAP_NESTED_ATTRIBUTE,
        New("root_map_attribute"),
        {"example-key": {"nested_string_attribute": "value"}},
        "root_map_attribute",
        "root_map_attribute",
        id="map-nested-attribute",
    ),
    pytest.param(
        MAP_NESTED_ATTRIBUTE,
        New("root_map_attribute").AtMapKey("example-key"),
        {"nested_string_attribute": "value"},
        "root_map_attribute.example-key",
        'root_map_attribute["example-key"]',
        id="map-nested-attribute-element",
    ),
    pytest.param(
        MAP_NESTED_ATTRIBUTE,
        New("root_map_attribute").AtMapKey("example-key").AtMapKey("nested_string_attribute"),
        "value",
        "root_map_attribute.example-key.nested_string_attribute",
        'root_map_attribute["example-key"]["nested_string_attribute"]',
        id="map-nested-attribute-string",
    ),
    # Building Set Nested Attributes Paths
    pytest.param(
        SET_NESTED_ATTRIBUTE,
        New("root_set_attribute"),
        [{"nested_string_attribute": "value"}],
        "root_set_attribute",
        "root_set_attribute",
        id="set-nested-attribute",
    ),
    pytest.param(
        SET_NESTED_ATTRIBUTE,
        New("root_set_attribute").AtSliceIndex(0),
        {"nested_string_attribute": "value"},
        "root_set_attribute.0",
        "root_set_attribute[0]",
        id="set-nested-attribute-element",
    ),
    pytest.param(
        SET_NESTED_ATTRIBUTE,
        New("root_set_attribute").AtSliceIndex(0).AtMapKey("nested_string_attribute"),
        "value",
        "root_set_attribute.0.nested_string_attribute",
        'root_set_attribute[0]["nested_string_attribute"]',
        id="set-nested-attribute-string",
    ),
    # Building Single Nested Attributes Paths
    pytest.param(
        SINGLE_NESTED_ATTRIBUTE,
        New("root_grouped_attributes"),
        {"nested_string_attribute": "value"},
        "root_grouped_attributes",
        "root_grouped_attributes",
        id="single-nested-attribute",
    ),
    pytest.param(
        SINGLE_NESTED_ATTRIBUTE,
        New("root_grouped_attributes").AtMapKey("nested_string_attribute"),
        "value",
        "root_grouped_attributes.nested_string_attribute",
        'root_grouped_attributes["nested_string_attribute"]',
        id="single-nested-attribute-string",
    ),
    # Building List Block Paths
    pytest.param(
        LIST_BLOCK,
        New("root_list_block"),
        [
            {
                "block_string_attribute": "value1",
                "nested_list_block": [{"nested_block_string_attribute": "value2"}],
            }
        ],
        "root_list_block",
        "root_list_block",
        id="list-block",
    ),
    pytest.param(
        LIST_BLOCK,
        New("root_list_block").AtSliceIndex(0),
        {
            "block_string_attribute": "value1",
            "nested_list_block": [{"nested_block_string_attribute": "value2"}],
        },
        "root_list_block.0",
        "root_list_block[0]",
        id="list-block-element",
    ),
    pytest.param(
        LIST_BLOCK,
        New("root_list_block").AtSliceIndex(0).AtMapKey("block_string_attribute"),
        "value1",
        "root_list_block.0.block_string_attribute",
        'root_list_block[0]["block_string_attribute"]',
        id="list-block-string",
    ),
    pytest.param(
        LIST_BLOCK,
        New("root_list_block").AtSliceIndex(0).AtMapKey("nested_list_block"),
        [{"nested_block_string_attribute": "value2"}],
        "root_list_block.0.nested_list_block",
        'root_list_block[0]["nested_list_block"]',
        id="list-block-nested-list-block",
    ),
    pytest.param(
        LIST_BLOCK,
        New("root_list_block")
        .AtSliceIndex(0)
        .AtMapKey("nested_list_block")
        .AtSliceIndex(0)
        .AtMapKey("nested_block_string_attribute"),
        "value2",
        "root_list_block.0.nested_list_block.0.nested_block_string_attribute",
        'root_list_block[0]["nested_list_block"][0]["nested_block_string_attribute"]',
        id="list-block-nested-string",
    ),
    # Building Set Block Paths
    pytest.param(
        SET_BLOCK,
        New("root_set_block"),
        [{"block_string_attribute": "value1"}],
        "root_set_block",
        "root_set_block",
        id="set-block",
    ),
    pytest.param(
        SET_BLOCK,
        New("root_set_block").AtSliceIndex(0),
        {"block_string_attribute": "value1"},
        "root_set_block.0",
        "root_set_block[0]",
        id="set-block-element",
    ),
    pytest.param(
        SET_BLOCK,
        New("root_set_block").AtSliceIndex(0).AtMapKey("block_string_attribute"),
        "value1",
        "root_set_block.0.block_string_attribute",
        'root_set_block[0]["block_string_attribute"]',
        id="set-block-string",
    ),
    # Building Single Block Paths
    pytest.param(
        SINGLE_BLOCK,
        New("root_single_block"),
        {
            "block_string_attribute": "value1",
            "nested_single_block": {"nested_block_string_attribute": "value2"},
        },
        "root_single_block",
        "root_single_block",
        id="single-block",
    ),
    pytest.param(
        SINGLE_BLOCK,
        New("root_single_block").AtMapKey("block_string_attribute"),
        "value1",
        "root_single_block.block_string_attribute",
        'root_single_block["block_string_attribute"]',
        id="single-block-string",
    ),
    pytest.param(
        SINGLE_BLOCK,
        New("root_single_block").AtMapKey("nested_single_block"),
        {"nested_block_string_attribute": "value2"},
        "root_single_block.nested_single_block",
        'root_single_block["nested_single_block"]',
        id="single-block-nested-single-block",
    ),
    pytest.param(
        SINGLE_BLOCK,
        New("root_single_block").AtMapKey("nested_single_block").AtMapKey("nested_block_string_attribute"),
        "value2",
        "root_single_block.nested_single_block.nested_block_string_attribute",
        'root_single_block["nested_single_block"]["nested_block_string_attribute"]',
        id="single-block-nested-string",
    ),
]


@pytest.mark.parametrize(("document", "path", "expected", "go_string", "text"), DOC_EXAMPLES)
def test_documentation_example(document: str, path: Path, expected: Any, go_string: str, text: str) -> None:
    doc = json.loads(document)
    assert Traverse(doc, path) == expected
    assert str(path) == go_string
    assert path.to_text() == text
    assert Path.parse(text) == path
    assert Traverse(doc, Path.parse(text)) == expected


def test_snake_case_builders_reach_the_same_values() -> None:
    doc = json.loads(LIST_BLOCK)
    path = New("root_list_block").AtSliceIndex(0).AtMapKey("nested_list_block").AtSliceIndex(0)
    assert Traverse(doc, path.AtMapKey("nested_block_string_attribute")) == "value2"
