"""The snapshots' internal API: the names other packages of this project use; not for users, and they may change.

What the CLI's ``snapshot`` command and the pytest plugin's report use.
A module outside this package imports from here (or from the package itself), never from one of
its underscore modules: ``tests/test_architecture.py`` holds every module to that.
"""

from ._api import build, check_file
from ._compare import compare_texts
from ._ignore import IgnoreSpec, parse_ignore_spec
from ._key import resolve_key

__all__ = [
    "IgnoreSpec",
    "build",
    "check_file",
    "compare_texts",
    "parse_ignore_spec",
    "resolve_key",
]
