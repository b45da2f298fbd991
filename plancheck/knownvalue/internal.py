"""The matchers' internal API: the names other packages of this project use; not for users, and they may change.

The matcher base and its failure search (what every check family matches values with), and the
JSON value model (types, exact numbers) that comparers share.
A module outside this package imports from here (or from the package itself), never from one of
its underscore modules: ``tests/test_architecture.py`` holds every module to that.
"""

from ._base import Check, Ctx, first_failure, require_check
from ._jsonmodel import is_array, is_json_scalar, is_number, is_object, json_type, numbers_equal, to_decimal

__all__ = [
    "Check",
    "Ctx",
    "first_failure",
    "is_array",
    "is_json_scalar",
    "is_number",
    "is_object",
    "json_type",
    "numbers_equal",
    "require_check",
    "to_decimal",
]
