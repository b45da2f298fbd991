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
from typing import Any

__all__ = ["homes", "resolve"]


def homes(package: str, file: str) -> dict[str, tuple[str, str | None]]:
    """Where each public name of ``package`` (whose ``__init__`` is ``file``) lives: name -> (module, attribute).

    An attribute of None is a public subpackage (``from . import compare``). Read from the package's
    compiled code, so an install that ships only compiled files reads the same table. The loader is the
    standard one for the file (source or compiled), not the one that imported it: pytest's assertion
    rewriter, which imports a plugin's package, has no ``get_code``. Each relative import compiles to
    ``IMPORT_NAME module`` after its level and its tuple of names.

    >>> import tfjsonpath
    >>> homes("tfjsonpath", tfjsonpath.__file__)["New"]
    ('tfjsonpath._path', 'New')
    """
    import dis  # only here: importing a package alone never needs them
    import importlib.util

    spec = importlib.util.spec_from_file_location(package, file)
    if spec is None or spec.loader is None:
        raise ImportError(f"{package} cannot read its own table of names from {file}")
    code = spec.loader.get_code(package)  # type: ignore[attr-defined]
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
