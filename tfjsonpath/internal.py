"""tfjsonpath's internal API: the names other packages of this project use; not for users, and they may change.

JSON type tests and wording, and quoting a map key as a path's text form does.
A module outside this package imports from here (or from the package itself), never from one of
its underscore modules: ``tests/test_architecture.py`` holds every module to that.
"""

from ._jsontypes import describe_json_type, is_array, is_object, plural
from ._text import quote_key

__all__ = [
    "describe_json_type",
    "is_array",
    "is_object",
    "plural",
    "quote_key",
]
