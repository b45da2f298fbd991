"""The snapshots' internal API: for this project's other packages, not for users."""

from ._api import build, check_file
from ._compare import compare_texts
from ._file import unreadable_error
from ._ignore import IgnoreSpec, parse_ignore_spec
from ._key import resolve_key

__all__ = ["IgnoreSpec", "build", "check_file", "compare_texts", "parse_ignore_spec", "resolve_key", "unreadable_error"]
