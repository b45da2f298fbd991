"""Errors raised by tfjsonpath. Every one derives from TfJsonPathError."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._path import Path
    from ._steps import Step

__all__ = ["PathNotFoundError", "PathSyntaxError", "TfJsonPathError"]


class TfJsonPathError(Exception):
    """Base class of every error raised by tfjsonpath.

    >>> issubclass(PathNotFoundError, TfJsonPathError)
    True
    """


class PathNotFoundError(TfJsonPathError, LookupError):
    """A Path does not lead to a value in a document.

    The message starts with the wording of Go's tfjsonpath, then says precisely
    what was found. It names JSON types, never values: values may be secrets.

    >>> from tfjsonpath import New
    >>> try:
    ...     New("a").AtMapKey("b").traverse({"a": [1]})
    ... except PathNotFoundError as e:
    ...     (e.step_index, e.found)
    (1, 'an array of 1 element')
    """

    path: Path
    step_index: int
    step: Step
    found: str
    go_message: str
    detail: str

    def __init__(self, *, path: Path, step_index: int, step: Step, found: str, go_message: str, detail: str) -> None:
        self.path = path
        self.step_index = step_index
        self.step = step
        self.found = found
        self.go_message = go_message
        self.detail = detail
        super().__init__(f"{go_message}; {detail}")

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild_not_found, (self.path, self.step_index, self.step, self.found, self.go_message, self.detail))


def _rebuild_not_found(
    path: Path, step_index: int, step: Step, found: str, go_message: str, detail: str
) -> PathNotFoundError:
    return PathNotFoundError(
        path=path, step_index=step_index, step=step, found=found, go_message=go_message, detail=detail
    )


class PathSyntaxError(TfJsonPathError, ValueError):
    """The text given to Path.parse is not a valid path.

    >>> from tfjsonpath import Path
    >>> try:
    ...     Path.parse('a[')
    ... except PathSyntaxError as e:
    ...     (e.position, e.expected)
    (2, 'a number or a quoted key')
    """

    text: str
    position: int
    expected: str

    def __init__(self, text: str, position: int, expected: str) -> None:
        self.text = text
        self.position = position
        self.expected = expected
        super().__init__(f"invalid path {text!r} at offset {position}: expected {expected}")

    def __reduce__(self) -> tuple[object, ...]:
        return (PathSyntaxError, (self.text, self.position, self.expected))
