"""The comparers' internal API: the names other packages of this project use; not for users, and they may change.

Where two values first differ, and rendering compared values with every secret hidden.
A module outside this package imports from here (or from the package itself), never from one of
its underscore modules: ``tests/test_architecture.py`` holds every module to that.
"""

from ._equality import first_difference, require_json
from ._render import render_compared, union_marks

__all__ = [
    "first_difference",
    "render_compared",
    "require_json",
    "union_marks",
]
