"""The acceptance runner's internal API: for this project's other packages, not for users."""

from ._leftovers import LEFTOVERS_ENV, default_leftovers_dir
from ._settings import DEFAULT_TIMEOUT

__all__ = ["DEFAULT_TIMEOUT", "LEFTOVERS_ENV", "default_leftovers_dir"]
