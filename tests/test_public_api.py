"""The public API of every public package and module is declared, sorted and complete.

Modules are discovered, not listed, so a module added later is checked without editing
this file. A module is public when no part of its dotted name starts with "_".
"""

from __future__ import annotations

import importlib
import inspect
import itertools
import pkgutil
import types
from typing import Any

import pytest

PACKAGES = ("tfjsonpath", "plancheck")


def _public_module_names() -> list[str]:
    names: list[str] = []
    for package_name in PACKAGES:
        package = importlib.import_module(package_name)
        names.append(package_name)
        # onerror: a subpackage that fails to import is reported by its own test below,
        # not by aborting discovery of every other module.
        for info in pkgutil.walk_packages(
            package.__path__, prefix=f"{package_name}.", onerror=lambda _name: None
        ):
            parts = info.name.split(".")
            if not any(part.startswith("_") for part in parts):
                names.append(info.name)
    return sorted(names)


MODULES = _public_module_names()


def _import(name: str) -> types.ModuleType:
    return importlib.import_module(name)


def _declared(module: types.ModuleType) -> list[str]:
    declared = getattr(module, "__all__", None)
    assert declared is not None, f"{module.__name__} has no __all__"
    assert isinstance(declared, (list, tuple)), f"{module.__name__}.__all__ is a {type(declared).__name__}"
    assert all(isinstance(name, str) for name in declared), f"{module.__name__}.__all__ holds a non-str"
    return list(declared)


def _defined_here(module: types.ModuleType, value: Any) -> bool:
    """True for objects this module is responsible for exporting.

    A plain module owns what it defines itself; a package also owns what its
    submodules define (that is how private ``_x.py`` modules reach the public).
    Names a plain module merely imports from elsewhere are not its API.
    """
    if isinstance(value, types.ModuleType):
        return False
    owner = getattr(value, "__module__", None)
    if not isinstance(owner, str):
        return False
    if owner == module.__name__:
        return True
    return hasattr(module, "__path__") and owner.startswith(module.__name__ + ".")


def test_modules_were_discovered() -> None:
    assert "tfjsonpath" in MODULES
    assert "plancheck" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_module_imports(name: str) -> None:
    assert _import(name).__name__ == name


@pytest.mark.parametrize("name", MODULES)
def test_all_is_sorted_and_unique(name: str) -> None:
    declared = _declared(_import(name))
    misplaced = [f"{a!r} before {b!r}" for a, b in itertools.pairwise(declared) if a > b]
    assert not misplaced, f"{name}.__all__ is not sorted (plain sorted()): {', '.join(misplaced)}"
    duplicates = sorted({n for n in declared if declared.count(n) > 1})
    assert not duplicates, f"{name}.__all__ lists {duplicates} more than once"


@pytest.mark.parametrize("name", MODULES)
def test_every_name_in_all_resolves(name: str) -> None:
    module = _import(name)
    missing = [n for n in _declared(module) if not hasattr(module, n)]
    assert not missing, f"{name}.__all__ lists names it does not have: {missing}"


@pytest.mark.parametrize("name", MODULES)
def test_all_is_complete(name: str) -> None:
    module = _import(name)
    declared = set(_declared(module))
    undeclared = sorted(
        attr
        for attr, value in vars(module).items()
        if not attr.startswith("_") and attr not in declared and _defined_here(module, value)
    )
    assert not undeclared, f"{name} defines public names missing from __all__: {undeclared}"


def _needs_doctest(value: Any) -> bool:
    return inspect.isclass(value) or inspect.isfunction(value)


@pytest.mark.parametrize("name", MODULES)
def test_public_classes_and_functions_have_a_doctest_example(name: str) -> None:
    module = _import(name)
    lacking = sorted(
        n
        for n in _declared(module)
        if _needs_doctest(value := getattr(module, n, None))
        and _defined_here(module, value)
        and ">>>" not in (inspect.getdoc(value) or "")
    )
    assert not lacking, f"{name}: public names without a docstring example: {lacking}"


@pytest.mark.parametrize("name", MODULES)
def test_every_public_class_and_function_reports_its_public_module(name: str) -> None:
    # Tracebacks, reprs and pickles name an object by __module__: it must be the module users import.
    module = _import(name)
    wrong = sorted(
        f"{n} ({value.__module__})"
        for n in _declared(module)
        if (inspect.isclass(value := getattr(module, n, None)) or inspect.isfunction(value))
        and value.__module__ != name
    )
    assert not wrong, f"{name} exports names that report another module (decorate them with @public): {wrong}"
