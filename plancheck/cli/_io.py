"""The streams and environment one ``tfplancheck`` command runs with, and the tool's version."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import IO, TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from .._redact import Secrets

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
    >>> path_argument("plan\\x00.json")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a path holding a NUL character (no file can be named so)
    """
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path (name a file or directory)")
    # A shell cannot pass one, but run() can: the file system calls would raise ValueError, an internal error.
    if "\x00" in text:
        raise argparse.ArgumentTypeError("a path holding a NUL character (no file can be named so)")
    return text


class Io:
    """Where a command reads and writes: stdout, stderr, stdin (bytes) and the environment it sees."""

    def __init__(self, stdout: TextIO, stderr: TextIO, stdin: IO[bytes] | None, environ: Mapping[str, str]) -> None:
        self.stdout = stdout
        self.stderr = stderr
        self.stdin = stdin
        self.environ = environ
        self._heard: list[Any] = []
        self._secrets: Secrets | None = None

    def heard(self, found: Any) -> None:
        """A document read (its ``secrets``) or secrets found during the command: scrubbed from all it prints.

        The one record of what a command read: every plan and state made while it runs is heard
        (``plancheck._documents.met``), so the streams and the error boundary's line scrub the same secrets.
        """
        self._heard.append(found)

    def secrets(self) -> Secrets:
        """Every secret heard so far (collected when first asked: a command prints little, and late)."""
        from .._redact import NO_SECRETS, Secrets

        found = NO_SECRETS if self._secrets is None else self._secrets
        for item in self._heard:
            secrets = item if isinstance(item, Secrets) else getattr(item, "secrets", None)
            if isinstance(secrets, Secrets) and len(secrets):
                found = found | secrets
        self._heard.clear()
        self._secrets = found
        return found

    def scrub(self, text: str) -> str:
        """``text`` with every secret heard replaced by ``(sensitive)``: what the command's streams write.

        >>> import io
        >>> from plancheck import Secrets
        >>> cli = Io(io.StringIO(), io.StringIO(), None, {})
        >>> cli.heard(Secrets(["hunter2"])); cli.scrub("pw hunter2")
        'pw (sensitive)'
        """
        try:
            return self._scrubbed(text)
        except Exception as exc:  # a document that cannot list its secrets: withhold, never leak nor raise here
            end = "\n" if text.endswith("\n") else ""
            return f"tfplancheck: output withheld: its secrets could not be listed ({type(exc).__name__}){end}"

    def scrubbed(self, text: str) -> str | None:
        """``text`` scrubbed as :meth:`scrub` does, or None when the secrets heard cannot be listed (withhold it).

        What the error boundary words its one line with, before the stream's own scrub.

        >>> import io
        >>> from plancheck import Secrets
        >>> cli = Io(io.StringIO(), io.StringIO(), None, {})
        >>> cli.heard(Secrets(["hunter2"])); cli.scrubbed("pw hunter2")
        'pw (sensitive)'
        """
        try:
            return self._scrubbed(text)
        except Exception:  # the document that broke the command may be what cannot give its secrets
            return None

    def _scrubbed(self, text: str) -> str:
        if not self._heard and self._secrets is None:
            return text
        return self.secrets().scrub(text)

    def out(self, text: str) -> None:
        if text:
            self.stdout.write(text + "\n")

    def fail(self, kind: str, message: str, json_mode: bool, hint: str = "") -> int:
        from ._output import error_document, render_json

        self.stderr.write(f"tfplancheck: error: {message}\n" + (f"{hint}\n" if hint else ""))
        if json_mode:
            self.out(render_json(error_document(kind, message, tool_version())))
        return 2
