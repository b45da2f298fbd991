"""The failures of the legacy check functions: one (``TestCheckFuncError``) and a composed set (``ComposedCheckError``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from ..._errors import TfCheckError
from ..._frozen import public

__all__ = ["ComposedCheckError", "TestCheckFuncError"]


@public("plancheck.acceptance")
class TestCheckFuncError(TfCheckError, AssertionError):
    """A legacy check function (``TestCheckResourceAttr`` ...) failed; the message is worded as in Go.

    ``check`` is the Go name of the function, ``name`` the resource (or output) it looked at,
    ``key`` the flatmap key; ``message`` is already redacted.

    >>> err = TestCheckFuncError("TestCheckResourceAttr", "null_resource.a", "id", "null_resource.a: Attribute 'id' not found")
    >>> print(err)
    null_resource.a: Attribute 'id' not found
    >>> isinstance(err, AssertionError), err.check, err.key
    (True, 'TestCheckResourceAttr', 'id')
    """

    __test__: ClassVar[bool] = False

    def __init__(self, check: str, name: str | None, key: str | None, message: str) -> None:
        self.check = check
        self.name = name
        self.key = key
        self.message = message
        super().__init__(message)


@public("plancheck.acceptance")
class ComposedCheckError(TfCheckError, AssertionError):
    """Checks composed by ``ComposeTestCheckFunc``/``ComposeAggregateTestCheckFunc`` failed.

    ``failures`` holds (1-based index, redacted message) of each failed check, of ``total``;
    ``errors`` the errors themselves (empty after unpickling). As in Go, each line reads
    ``Check N/M error: ...`` and the lines are joined by newlines.

    >>> err = ComposedCheckError(3, [(1, "boom"), (3, "bang")])
    >>> print(err)
    Check 1/3 error: boom
    Check 3/3 error: bang
    """

    __test__: ClassVar[bool] = False

    def __init__(self, total: int, failures: Iterable[tuple[int, str]], errors: Iterable[BaseException] = ()) -> None:
        self.total = total
        self.failures = tuple(failures)
        self.errors = tuple(errors)
        super().__init__("\n".join(f"Check {i}/{total} error: {text}" for i, text in self.failures))

    def __reduce__(self) -> tuple[object, ...]:
        # The check functions' own errors stay in this process: their text is not redacted, and a
        # user's exception class may not pickle.
        return (type(self), (self.total, self.failures))
