"""Errors raised by tfjsonpath (every one derives from TfJsonPathError), how they pickle, and the one way to
give a class or function the module users import it from."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

__all__ = ["PathArgumentError", "PathSyntaxError", "PicklesFields", "TfJsonPathError", "public"]


_T = TypeVar("_T", bound=Callable[..., object])


def public(module: str) -> Callable[[_T], _T]:
    """Decorator: tracebacks, reprs and pickles name a class or function by the module users import it from.

    The module that defines it is kept in ``__defined_in__`` (its doctests run there).

    >>> @public("plancheck")
    ... class Example(Exception):
    ...     pass
    >>> Example.__module__, Example.__defined_in__
    ('plancheck', 'tfjsonpath._errors')
    """

    def mark(obj: _T) -> _T:
        obj.__defined_in__ = obj.__module__  # type: ignore[attr-defined]
        obj.__module__ = module
        return obj

    return mark


# Long path texts are cut around the error position so that one bad 10,000-step
# path does not make a 100 kB message.
_EXCERPT_LIMIT = 60
_EXCERPT_RADIUS = 25


class PicklesFields:
    """An exception that pickles as its fields, whatever its constructor takes.

    ``pytest-xdist`` and ``multiprocessing`` ship errors between processes; the default pickle
    calls the class with ``args`` (the message), which fails for every error whose constructor
    takes its fields. This one restores ``args`` and the attributes without calling ``__init__``.

    >>> import pickle
    >>> error = PathSyntaxError("a[", 2, "an index", found="the end")
    >>> copy = pickle.loads(pickle.dumps(error))
    >>> type(copy).__name__, str(copy) == str(error), copy.position, copy.expected
    ('PathSyntaxError', True, 2, 'an index')
    """

    __slots__ = ()

    def __reduce__(self) -> tuple[object, ...]:
        error: BaseException = self  # type: ignore[assignment]
        return (_restore, (type(self), error.args), dict(vars(self)))


def _restore(cls: type[BaseException], args: tuple[object, ...]) -> BaseException:
    error = cls.__new__(cls, *args)
    error.args = args  # OSError's __new__ (a TimeoutError's) leaves them to __init__, which a restore does not call
    return error


@public("tfjsonpath")
class TfJsonPathError(PicklesFields, Exception):
    """Base class of every error raised by tfjsonpath.

    >>> from tfjsonpath import PathNotFoundError
    >>> issubclass(PathNotFoundError, TfJsonPathError), issubclass(PathSyntaxError, TfJsonPathError)
    (True, True)
    """


@public("tfjsonpath")
class PathArgumentError(TfJsonPathError, TypeError, ValueError):
    """A path, a step or a walk was given an argument it cannot use.

    Raised wherever tfjsonpath is misused (a negative or ``bool`` index, a key that is no ``str``,
    ``Path.parse(5)``, ``Traverse(document, "a")``, a document with a non-``str`` key or a cycle given to
    ``walk``...), so an ``except TfJsonPathError`` sees it; also a ``TypeError`` and a ``ValueError``, which
    such a misuse raised before. The message names the argument and its type, never a document's value.

    >>> from tfjsonpath import New
    >>> try:
    ...     New("list").AtSliceIndex(-1)
    ... except TfJsonPathError as exc:
    ...     print(type(exc).__name__, isinstance(exc, ValueError), exc)
    PathArgumentError True AtSliceIndex() index must be >= 0, got -1
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)


def _excerpt(text: str, position: int) -> str:
    if len(text) <= _EXCERPT_LIMIT:
        return repr(text)
    start = max(0, position - _EXCERPT_RADIUS)
    end = min(len(text), position + _EXCERPT_RADIUS)
    head = "..." if start > 0 else ""
    tail = "..." if end < len(text) else ""
    return f"{head}{text[start:end]!r}{tail} (length {len(text)})"


@public("tfjsonpath")
class PathSyntaxError(TfJsonPathError, ValueError):
    """The text given to ``Path.parse`` is not a valid path.

    ``position`` is the 0-based offset in ``text`` where parsing stopped,
    ``expected`` says what would have been valid there and ``found`` what was there.

    >>> from tfjsonpath import Path
    >>> try:
    ...     Path.parse('a[')
    ... except PathSyntaxError as e:
    ...     print(e)
    ...     print(e.position, e.expected, e.found, sep=" | ")
    invalid path 'a[' at offset 2: expected an index or a quoted key, found the end of the text
    2 | an index or a quoted key | the end of the text
    """

    def __init__(self, text: str, position: int, expected: str, found: str | None = None) -> None:
        self.text = text
        self.position = position
        self.expected = expected
        if found is None:
            found = repr(text[position]) if position < len(text) else "the end of the text"
        self.found = found
        super().__init__(
            f"invalid path {_excerpt(text, position)} at offset {position}: expected {expected}, found {found}"
        )
