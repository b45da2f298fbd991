"""The acceptance runner's internal API: the names other packages of this project use; not for users, and they may change.

What the pytest plugin uses beyond the public names: where leftovers are kept, the default timeout.
A module outside this package imports from here (or from the package itself), never from one of
its underscore modules: ``tests/test_architecture.py`` holds every module to that.
"""

from ._leftovers import LEFTOVERS_ENV, default_leftovers_dir
from ._settings import DEFAULT_TIMEOUT

__all__ = [
    "DEFAULT_TIMEOUT",
    "LEFTOVERS_ENV",
    "default_leftovers_dir",
]
