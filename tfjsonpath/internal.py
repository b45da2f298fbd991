"""tfjsonpath's internal API: for this project's other packages, not for users."""

from ._errors import PicklesFields
from ._jsontypes import describe_json_type, is_array, is_object, json_kind, plural
from ._public import public
from ._text import quote_key

__all__ = [
    "PicklesFields",
    "describe_json_type", "is_array", "is_object", "json_kind", "plural", "public", "quote_key"]
