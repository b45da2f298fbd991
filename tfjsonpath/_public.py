"""The one way to give a class or function the module users import it from."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

__all__ = ["public"]

_T = TypeVar("_T", bound=Callable[..., object])


def public(module: str) -> Callable[[_T], _T]:
    """Decorator: tracebacks, reprs and pickles name a class or function by the module users import it from.

    The module that defines it is kept in ``__defined_in__`` (its doctests run there).

    >>> @public("plancheck")
    ... class Example(Exception):
    ...     pass
    >>> Example.__module__, Example.__defined_in__
    ('plancheck', 'tfjsonpath._public')
    """

    def mark(obj: _T) -> _T:
        obj.__defined_in__ = obj.__module__  # type: ignore[attr-defined]
        obj.__module__ = module
        return obj

    return mark
