"""Errors raised by tfjsonpath. Every one derives from TfJsonPathError."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._path import Path
    from ._steps import Step

__all__ = ["PathNotFoundError", "PathSyntaxError", "TfJsonPathError"]

# Long path texts are cut around the error position so that one bad 10,000-step
# path does not make a 100 kB message.
_EXCERPT_LIMIT = 60
_EXCERPT_RADIUS = 25


class TfJsonPathError(Exception):
    """Base class of every error raised by tfjsonpath.

    >>> issubclass(PathNotFoundError, TfJsonPathError), issubclass(PathSyntaxError, TfJsonPathError)
    (True, True)
    """


class PathNotFoundError(TfJsonPathError, LookupError):
    """A Path does not lead to a value in a document.

    The message starts with the wording of Go's tfjsonpath (``go_message``), then
    says precisely what went wrong (``detail``). It names JSON types, never values:
    values may be secrets. ``step_index`` counts from 0; the message's "step N"
    counts from 1.

    >>> from tfjsonpath import New
    >>> try:
    ...     New("a").AtMapKey("b").traverse({"a": [1]})
    ... except PathNotFoundError as e:
    ...     print(e)
    ...     print(e.step_index, e.step, e.found, e.reached.to_text(), sep=" | ")
    path not found: cannot convert object at MapStep a.b to map[string]any; expected an object for key 'b' at step 2 of a["b"], found an array of 1 element
    1 | MapStep('b') | an array of 1 element | a
    """

    path: Path
    step_index: int
    step: Step
    found: str
    go_message: str
    detail: str

    def __init__(
        self, *, path: Path, step_index: int, step: Step, found: str, go_message: str, detail: str
    ) -> None:
        self.path = path
        self.step_index = step_index
        self.step = step
        self.found = found
        self.go_message = go_message
        self.detail = detail
        super().__init__(f"{go_message}; {detail}")

    @property
    def reached(self) -> Path:
        """The longest prefix of ``path`` that exists: where ``step`` was tried.

        >>> from tfjsonpath import New
        >>> try:
        ...     New("a").AtSliceIndex(5).AtMapKey("b").traverse({"a": [1]})
        ... except PathNotFoundError as e:
        ...     e.reached.to_text()
        'a'
        """
        return self.path[: self.step_index]

    def __reduce__(self) -> tuple[object, ...]:
        return (
            _rebuild_not_found,
            (self.path, self.step_index, self.step, self.found, self.go_message, self.detail),
        )


def _rebuild_not_found(
    path: Path, step_index: int, step: Step, found: str, go_message: str, detail: str
) -> PathNotFoundError:
    return PathNotFoundError(
        path=path, step_index=step_index, step=step, found=found, go_message=go_message, detail=detail
    )


def _excerpt(text: str, position: int) -> str:
    if len(text) <= _EXCERPT_LIMIT:
        return repr(text)
    start = max(0, position - _EXCERPT_RADIUS)
    end = min(len(text), position + _EXCERPT_RADIUS)
    head = "..." if start > 0 else ""
    tail = "..." if end < len(text) else ""
    return f"{head}{text[start:end]!r}{tail} (length {len(text)})"


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

    text: str
    position: int
    expected: str
    found: str

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

    def __reduce__(self) -> tuple[object, ...]:
        return (PathSyntaxError, (self.text, self.position, self.expected, self.found))


# Tracebacks name the errors by the module users import them from.
for _error in (TfJsonPathError, PathNotFoundError, PathSyntaxError):
    _error.__module__ = "tfjsonpath"
del _error
