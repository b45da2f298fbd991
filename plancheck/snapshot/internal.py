"""The snapshots' internal API: for this project's other packages, not for users."""

from ._api import build, check_file, unreadable_error
from ._compare import compare_texts, review
from ._render import IgnoreSpec, parse_ignore_spec
from ._secrets import resolve_key

__all__ = [
    "IgnoreSpec",
    "build",
    "check_file",
    "compare_texts",
    "parse_ignore_spec",
    "resolve_key",
    "review",
    "unreadable_error",
]
