"""The streams and environment one ``tfplancheck`` command runs with, and the tool's version."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import IO, TextIO

__all__ = ["Io", "add_allow_errored", "path_argument", "tool_version"]


def tool_version() -> str:
    try:
        from importlib.metadata import version

        return version("tfplancheck")
    except Exception:  # running from a source tree without installed metadata
        return "0+unknown"


def add_allow_errored(parser: argparse.ArgumentParser) -> None:
    """``--allow-errored``, on every command that reads a plan.

    >>> parser = argparse.ArgumentParser()
    >>> add_allow_errored(parser)
    >>> parser.parse_args(["--allow-errored"]).allow_errored
    True
    """
    parser.add_argument(
        "--allow-errored", action="store_true",
        help='read a plan Terraform wrote although planning failed ("errored": true; refused by default): '
        "it is partial, and the output says so",
    )


def path_argument(text: str) -> str:
    """The argparse type of every path argument of every command: an empty one is a usage error.

    An empty path would otherwise mean the current directory to the file system calls
    (``providers mirror ""`` mirrored into it).

    >>> path_argument("plan.json")
    'plan.json'
    >>> path_argument("")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: an empty path (name a file or directory)
    """
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path (name a file or directory)")
    return text


class Io:
    """Where a command reads and writes: stdout, stderr, stdin (bytes) and the environment it sees."""

    def __init__(self, stdout: TextIO, stderr: TextIO, stdin: IO[bytes] | None, environ: Mapping[str, str]) -> None:
        self.stdout = stdout
        self.stderr = stderr
        self.stdin = stdin
        self.environ = environ

    def out(self, text: str) -> None:
        if text:
            self.stdout.write(text + "\n")

    def fail(self, kind: str, message: str, json_mode: bool, hint: str = "") -> int:
        from ._output import error_document, render_json

        self.stderr.write(f"tfplancheck: error: {message}\n" + (f"{hint}\n" if hint else ""))
        if json_mode:
            self.out(render_json(error_document(kind, message, tool_version())))
        return 2
