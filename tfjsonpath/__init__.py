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

# Every public name is imported on first use (PEP 562; see _lazy.py): the library's own modules import
# tfjsonpath._errors where they need no path (the process lifecycle's Terminated), which must not import the paths.
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

# The one table: type checkers read these imports, and _homes reads the same lines, compiled.
if TYPE_CHECKING:
    from ._errors import PathArgumentError, PathSyntaxError, TfJsonPathError
    from ._jsontypes import describe_json_type
    from ._path import New, Path, PathNotFoundError, Traverse, leaves, walk
    from ._text import MapStep, SliceStep, Step

__all__ = [
    "MapStep",
    "New",
    "Path",
    "PathArgumentError",
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


@functools.cache
def _homes() -> dict[str, tuple[str, str | None]]:
    """Where each public name lives, read once from the imports above."""
    from ._lazy import homes

    return homes(__spec__)


# Only at run time: a type checker that saw a module __getattr__ would take any name, a misspelt one too,
# as an Any; it reads the imports under TYPE_CHECKING instead.
if not TYPE_CHECKING:

    def __getattr__(name: str) -> Any:
        if name in __all__:
            from ._lazy import resolve

            return resolve(globals(), _homes(), name)
        raise AttributeError(f"module 'tfjsonpath' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
