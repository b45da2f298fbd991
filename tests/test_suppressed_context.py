"""A scrubbed error replaces the one it scrubbed with ``raise NEW from None``: the original, secret and all, stays
its ``__context__`` (Python sets it at the raise, whatever the code does), with ``__suppress_context__`` set. Every
renderer of an error honours the flag: ``traceback``, ``logging.exception``, pytest's every ``--tb`` mode, its JUnit
XML and xdist's serialised report (made from that rendering: the plugin test beside the definition errors runs
them), the CLI's one line (the message alone), and Sentry's SDK (its ``walk_exception_chain`` follows
``__context__`` only where the flag is not set). So the original shows only where an exception is chained to
another WITHOUT the flag: a ``raise`` inside an ``except`` block that names no cause. The library has none; the
guard below keeps it so, and the table pins that a scrubbed error renders no secret by any of those renderers."""

from __future__ import annotations

import ast
import io
import logging
import traceback
from collections.abc import Callable
from pathlib import Path

import pytest

from plancheck.acceptance import Sensitive, TestCase, TestDefinitionError, TestStep

ROOT = Path(__file__).resolve().parents[1]
SECRET = "zz-context-secret-4d7a"


def _raises_without_a_cause(source: str) -> list[int]:
    """The lines of each ``raise X`` inside an ``except`` block (of the same function) that names no cause: Python
    chains the handled exception to X as its context, and every renderer shows it ("During handling of...")."""
    found: list[int] = []

    def visit(node: ast.AST, handling: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                visit(child, False)  # a function defined in a handler runs later, outside it
            elif isinstance(child, ast.ExceptHandler):
                visit(child, True)
            else:
                if handling and isinstance(child, ast.Raise) and child.exc is not None and child.cause is None:
                    found.append(child.lineno)
                visit(child, handling)

    visit(ast.parse(source), False)
    return found


@pytest.mark.parametrize(("source", "lines"), [
    pytest.param("try:\n    f()\nexcept E as e:\n    raise F(scrub(e))\n", [4], id="a-new-error-chained-by-python"),
    pytest.param("try:\n    f()\nexcept E as e:\n    raise F(scrub(e)) from None\n", [], id="from-none"),
    pytest.param("try:\n    f()\nexcept E as e:\n    raise F(str(e)) from e\n", [], id="an-explicit-cause"),
    pytest.param("try:\n    f()\nexcept E:\n    raise\n", [], id="a-bare-re-raise"),
    pytest.param("try:\n    f()\nexcept E as e:\n    err = F(scrub(e))\nraise err\n", [], id="raised-after-the-block"),
    pytest.param("try:\n    f()\nexcept E:\n    def later():\n        raise F()\n", [], id="a-function-made-in-the-block"),
])
def test_the_guard_finds_a_raise_chained_by_python(source: str, lines: list[int]) -> None:
    assert _raises_without_a_cause(source) == lines


def test_no_error_of_the_library_is_chained_to_the_one_it_replaces() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for package in ("plancheck", "tfjsonpath")
        for path in sorted((ROOT / package).rglob("*.py"))
        for line in _raises_without_a_cause(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def _a_steps_error() -> None:
    TestStep(config="", variables={"pw": Sensitive(SECRET)}, taint=[f"{SECRET} x"])


def _a_cases_error() -> None:
    TestCase(steps=[TestStep(config="", variables={"pw": Sensitive(SECRET)})], providers={f"{SECRET} x": object})


def _traceback_text(error: BaseException) -> str:
    return "".join(traceback.format_exception(error))


def _logged_text(error: BaseException) -> str:
    stream = io.StringIO()
    logger = logging.getLogger("test_suppressed_context")
    handler = logging.StreamHandler(stream)
    logger.addHandler(handler)
    try:
        try:
            raise error
        except TestDefinitionError:
            logger.exception("failed")
    finally:
        logger.removeHandler(handler)
    return stream.getvalue()


def _native_chain(error: BaseException) -> str:
    # Without capture_locals: the frames' locals (unittest --locals) are another channel than the chain, the one the
    # pytest plugin withholds for the library's frames (plancheck._plugin.frames).
    return "".join(traceback.TracebackException.from_exception(error).format())


@pytest.mark.parametrize("render", [
    pytest.param(_traceback_text, id="traceback"),
    pytest.param(_logged_text, id="logging-exception"),
    pytest.param(_native_chain, id="traceback-exception"),
])
@pytest.mark.parametrize("build", [
    pytest.param(_a_steps_error, id="a-steps-definition-error"),
    pytest.param(_a_cases_error, id="a-cases-definition-error"),
])
def test_a_scrubbed_error_renders_no_secret(build: Callable[[], None], render: Callable[[BaseException], str]) -> None:
    with pytest.raises(TestDefinitionError) as info:
        build()
    assert info.value.__suppress_context__
    shown = render(info.value)
    assert "(sensitive) x" in shown
    assert SECRET not in shown
