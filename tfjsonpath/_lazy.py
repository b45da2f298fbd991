"""A package's public names, imported on first use (PEP 562): the one table both packages' ``__init__`` read.

A package writes each public name twice: in a relative import under ``TYPE_CHECKING`` (what type checkers
and readers see) and in ``__all__``. At run time nothing is imported until a name is asked for; then
:func:`homes` reads the same import lines from the package's compiled code, so the table is never
written a third time, and the name's module alone is imported.

Why lazily: pytest imports every installed plugin's package in every session (``plancheck.plugin``), and
imports it through its assertion rewriter, which costs per module. A session that uses nothing of the
package must pay for next to nothing of it, and a test that uses one check loads only what it needs.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec

__all__ = ["homes", "resolve"]


def homes(spec: ModuleSpec) -> dict[str, tuple[str, str | None]]:
    """Where each public name of the package ``spec`` imported lives: name -> (module, attribute).

    An attribute of None is a public subpackage (``from . import compare``). Read from the package's
    compiled code, so an install that ships only compiled files reads the same table, and so does one in a
    zip archive (its loader reads the archive). The loader is the one that imported the package, unless it
    cannot give the code: pytest's assertion rewriter, which imports a plugin's package, has no ``get_code``;
    then the standard one for the file (source or compiled). Each relative import compiles to
    ``IMPORT_NAME module`` after its level and its tuple of names.

    >>> import tfjsonpath
    >>> homes(tfjsonpath.__spec__)["New"]
    ('tfjsonpath._path', 'New')
    """
    import dis  # only here: importing a package alone never needs them
    import importlib.util

    package, loader = spec.name, spec.loader
    if not hasattr(loader, "get_code"):
        standard = importlib.util.spec_from_file_location(package, spec.origin)
        if standard is None or standard.loader is None:
            raise ImportError(f"{package} cannot read its own table of names from {spec.origin}")
        loader = standard.loader
    code = loader.get_code(package)  # type: ignore[union-attr]
    steps = list(dis.get_instructions(code))
    found: dict[str, tuple[str, str | None]] = {}
    for at, step in enumerate(steps):
        if step.opname != "IMPORT_NAME" or steps[at - 2].argval != 1:
            continue  # an absolute import (typing, functools): no public name's home
        module, names = step.argval, steps[at - 1].argval
        for name in names:
            if module:
                found[name] = (f"{package}.{module}", name)
            else:  # from . import compare: the public subpackage itself
                found[name] = (f"{package}.{name}", None)
    return found


def resolve(namespace: dict[str, Any], table: Mapping[str, tuple[str, str | None]], name: str) -> Any:
    """The public ``name`` from its home in ``table``, kept in the package's ``namespace`` for the next time.

    >>> import tfjsonpath
    >>> space = {}
    >>> resolve(space, {"New": ("tfjsonpath._path", "New")}, "New") is tfjsonpath.New, "New" in space
    (True, True)
    """
    module, attribute = table[name]
    value = importlib.import_module(module)
    if attribute is not None:
        value = getattr(value, attribute)
    namespace[name] = value
    return value
