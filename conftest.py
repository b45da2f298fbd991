"""Root conftest: shared test configuration. The plancheck plugin is loaded by its entry point, not here."""

from __future__ import annotations

import doctest
import types
from typing import Any

_from_module = doctest.DocTestFinder._from_module  # type: ignore[attr-defined]


def _from_defining_module(self: doctest.DocTestFinder, module: types.ModuleType | None, obj: Any) -> bool:
    # @public (tfjsonpath/_errors.py) gives a class or function the module users import it from; its
    # doctests, and its methods' doctests, still run with the module that defines it, once.
    home = vars(obj).get("__defined_in__") if isinstance(obj, (type, types.FunctionType)) else None
    if home is not None and module is not None:
        return bool(module.__name__ == home)
    return bool(_from_module(self, module, obj))


doctest.DocTestFinder._from_module = _from_defining_module  # type: ignore[attr-defined]
