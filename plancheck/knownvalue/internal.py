"""The matchers' internal API: for this project's other packages, not for users."""

from ._base import Check, Ctx, first_failure, require_check
from ._jsonmodel import is_array, is_json_scalar, is_number, is_object, json_type, numbers_equal, to_decimal

__all__ = ["Check", "Ctx", "first_failure", "is_array", "is_json_scalar", "is_number", "is_object", "json_type",
           "numbers_equal", "require_check", "to_decimal"]
