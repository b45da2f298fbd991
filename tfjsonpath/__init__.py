"""tfjsonpath: immutable, hashable paths into Terraform JSON documents.

A port of Go's ``github.com/hashicorp/terraform-plugin-testing/tfjsonpath``
without its faults: builders never alias, bad keys and negative indexes are
rejected at construction, errors say at which step and what was found, and
besides Go's dotted ``str()`` there is an unambiguous, escaped text form that
parses back.

>>> import tfjsonpath
>>> p = tfjsonpath.New("root_list_block").AtSliceIndex(0).AtMapKey("nested_list_block")
>>> str(p), p.to_text()
('root_list_block.0.nested_list_block', 'root_list_block[0]["nested_list_block"]')
>>> tfjsonpath.Traverse({"root_list_block": [{"nested_list_block": "x"}]}, p)
'x'
>>> tfjsonpath.Path.parse(p.to_text()) == p
True
"""

from ._errors import PathSyntaxError, TfJsonPathError
from ._jsontypes import describe_json_type
from ._path import New, Path, PathNotFoundError, Traverse, leaves, walk
from ._text import MapStep, SliceStep, Step

__all__ = [
    "MapStep",
    "New",
    "Path",
    "PathNotFoundError",
    "PathSyntaxError",
    "SliceStep",
    "Step",
    "TfJsonPathError",
    "Traverse",
    "describe_json_type",
    "leaves",
    "walk",
]
