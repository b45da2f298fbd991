"""The comparers' internal API: for this project's other packages, not for users."""

from ._equality import first_difference, require_json
from ._render import render_compared, union_marks

__all__ = ["first_difference", "render_compared", "require_json", "union_marks"]
