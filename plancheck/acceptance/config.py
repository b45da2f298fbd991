"""Where a step's configuration comes from (Go's ``config`` package of terraform-plugin-testing).

A *config function* takes a :class:`TestStepConfigRequest` (the step's number and the test's
name) and returns a path. Give one as ``TestStep(config_directory=...)`` (a directory whose
files are the step's configuration) or ``TestStep(config_file=...)`` (one file). Relative
paths are relative to the runner's ``base_dir``: the test file's directory under the
``tf_acceptance`` fixture (Go's are relative to the test's package directory, which is the same
idea), the current directory otherwise.

=========================  ==========================================
Go and Python              path
=========================  ==========================================
``StaticDirectory(d)``     ``d``
``TestNameDirectory()``    ``testdata/<test>``
``TestStepDirectory()``    ``testdata/<test>/<step>``
``StaticFile(f)``          ``f``
``TestNameFile(f)``        ``testdata/<test>/f``
``TestStepFile(f)``        ``testdata/<test>/<step>/f``
=========================  ==========================================

The test name is the test function's name under the fixture (without pytest's parameter
suffix), or ``AcceptanceRunner(test_name=...)``.

>>> request = TestStepConfigRequest(step_number=2, test_name="test_widget")
>>> TestStepDirectory()(request), TestNameFile("main.tf")(request), StaticFile("x.tf")(request)
('testdata/test_widget/2', 'testdata/test_widget/main.tf', 'x.tf')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from .._frozen import FrozenValue, frozen
from ._errors import TestDefinitionError

__all__ = [
    "StaticDirectory",
    "StaticFile",
    "TestNameDirectory",
    "TestNameFile",
    "TestStepConfigFunc",
    "TestStepConfigRequest",
    "TestStepDirectory",
    "TestStepFile",
]


@frozen
class TestStepConfigRequest(FrozenValue):
    """What a config function is told: the 1-based ``step_number`` and the ``test_name``.

    ``test_name`` is ``""`` when the runner was not told the test's name.

    >>> TestStepConfigRequest(step_number=1, test_name="test_a")
    TestStepConfigRequest(1, 'test_a')
    """

    __test__: ClassVar[bool] = False

    step_number: int
    test_name: str


#: A function from a :class:`TestStepConfigRequest` to a path (Go's ``config.TestStepConfigFunc``).
TestStepConfigFunc = Callable[[TestStepConfigRequest], str]


def _text(value: object, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise TestDefinitionError(where, f"expected a non-empty path (str), got {value!r}")
    return value


def _name(request: TestStepConfigRequest, where: str) -> str:
    if not request.test_name:
        raise TestDefinitionError(
            where,
            "needs the test's name: use the tf_acceptance fixture or AcceptanceRunner(test_name=...)",
        )
    return request.test_name


def _static(value: str, name: str) -> TestStepConfigFunc:
    path = _text(value, name)

    def config_func(_request: TestStepConfigRequest) -> str:
        return path

    return config_func


def _in_testdata(name: str, *, per_step: bool, file: str | None = None) -> TestStepConfigFunc:
    # Go's paths: testdata/<test name>[/<step number>][/<file>], joined with "/" on every platform.
    leaf = () if file is None else (_text(file, name),)

    def config_func(request: TestStepConfigRequest) -> str:
        step = (str(request.step_number),) if per_step else ()
        return "/".join(("testdata", _name(request, name), *step, *leaf))

    return config_func


def StaticDirectory(directory: str) -> TestStepConfigFunc:
    """The same ``directory`` for every step.

    >>> StaticDirectory("fixtures/basic")(TestStepConfigRequest(1, "t"))
    'fixtures/basic'
    """
    return _static(directory, "StaticDirectory")


def TestNameDirectory() -> TestStepConfigFunc:
    """``testdata/<test name>``, for every step.

    >>> TestNameDirectory()(TestStepConfigRequest(3, "test_widget"))
    'testdata/test_widget'
    """
    return _in_testdata("TestNameDirectory", per_step=False)


def TestStepDirectory() -> TestStepConfigFunc:
    """``testdata/<test name>/<step number>``.

    >>> TestStepDirectory()(TestStepConfigRequest(3, "test_widget"))
    'testdata/test_widget/3'
    """
    return _in_testdata("TestStepDirectory", per_step=True)


def StaticFile(file: str) -> TestStepConfigFunc:
    """The same ``file`` for every step.

    >>> StaticFile("fixtures/main.tf")(TestStepConfigRequest(1, "t"))
    'fixtures/main.tf'
    """
    return _static(file, "StaticFile")


def TestNameFile(file: str) -> TestStepConfigFunc:
    """``testdata/<test name>/<file>``, for every step.

    >>> TestNameFile("main.tf")(TestStepConfigRequest(2, "test_widget"))
    'testdata/test_widget/main.tf'
    """
    return _in_testdata("TestNameFile", per_step=False, file=file)


def TestStepFile(file: str) -> TestStepConfigFunc:
    """``testdata/<test name>/<step number>/<file>``.

    >>> TestStepFile("main.tf")(TestStepConfigRequest(2, "test_widget"))
    'testdata/test_widget/2/main.tf'
    """
    return _in_testdata("TestStepFile", per_step=True, file=file)


# Not test functions, though their names start with "test": pytest must not collect them when imported.
TestNameDirectory.__test__ = False  # type: ignore[attr-defined]
TestStepDirectory.__test__ = False  # type: ignore[attr-defined]
TestNameFile.__test__ = False  # type: ignore[attr-defined]
TestStepFile.__test__ = False  # type: ignore[attr-defined]
