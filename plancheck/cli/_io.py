"""Where one ``tfplancheck`` command reads and writes: its streams, its environment and its inputs.

Every byte the command prints passes a guarded stream (:class:`_Guarded`: scrubbed of every secret the
command heard, made terminal-safe, write failures told in one line), but a document its writer scrubbed value
by value (:class:`Rendered`), which is not scrubbed again; every report and every JSON document is one, the latter written by
:func:`render_json` (a command's own through :meth:`Io.rendered`, of every secret heard). A plan or checks file
is read once, by the loader's ``read_bytes`` (which stops after ``limit`` bytes), so the command line holds no
second copy of opening files, reading streams or enforcing the size limit; it only says what went wrong in its
own words. A plan may be JSON
(``terraform show -json`` output) or a binary plan file (``terraform plan -out``), which is turned
into JSON by running ``terraform show -json`` (or ``tofu``) where the plan's providers are: the plan
file's directory, or ``--chdir DIR`` (:mod:`plancheck._terraform.planfile`, which the pytest plugin's
``--tf-plan`` and ``plancheck.load_plan_file`` share). The files a command writes besides its streams
are here too: ``--report`` files (:func:`write_report`, through the same guard) and snapshot files
(:func:`compare_snapshot`). So are the values every output stands on (``query``'s answers are
``_query.py``'s): a plan's notes and summary, the colours of the text (:class:`Style`), and what a run of
many plans hands between its processes (:class:`PlanFacts`, :class:`PlanFailed`, :class:`Job`, :class:`Outcome`;
the run itself is :func:`plancheck.cli._many.check_many`).
"""

from __future__ import annotations

import argparse
import datetime
import io as _stdio
import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any, Final, TextIO

from tfjsonpath._jsontypes import copy_json

from .._errors import PARTIAL_NOTE, DocumentFormatError
from .._frozen import FrozenValue, ReadOnly, frozen
from .._loading.source import MAX_BYTES_ENV, InputTooLarge, max_input_bytes, regular_file, write_whole
from .._redact import NO_SECRETS, Secrets, secrets_from_state, secrets_state
from .._text import exception_text, one_line, style_mark, terminal_safe

if TYPE_CHECKING:

    from .._documents.plan import Plan

__all__ = [
    "CliError",
    "Io",
    "Job",
    "Outcome",
    "PlanFacts",
    "PlanFailed",
    "PlanParts",
    "Rendered",
    "SCHEMA_VERSION",
    "SnapshotUsageError",
    "Style",
    "UnreadableInput",
    "add_command",
    "add_snapshot_arguments",
    "checks_text",
    "compare_snapshot",
    "crossing_secrets",
    "error_document",
    "error_json",
    "job_count",
    "path_argument",
    "plan_notes",
    "plan_summary",
    "read_input",
    "read_plan",
    "render_json",
    "reports_clash",
    "scrubbed_values",
    "snapshot_document",
    "snapshot_ignore",
    "tool_version",
    "use_colour",
    "write_report",
]

#: The version of the JSON documents the command prints; it changes only when a change would break a reader
#: (their shapes are documented in ``plancheck/schemas/cli-output.schema.json``).
SCHEMA_VERSION: Final = 1


def tool_version() -> str:
    try:
        from importlib.metadata import version

        return version("tfplancheck")
    except Exception:  # running from a source tree without installed metadata
        return "0+unknown"


def add_command(commands: Any, name: str, description: str, epilog: str, streams: object) -> Any:
    """Register the subcommand ``tfplancheck NAME`` on ``commands`` (the command line's subcommand parsers).

    Its help shows ``description`` and ``epilog`` as written, and is printed to ``streams``, the run's own.

    >>> commands = argparse.ArgumentParser(prog="tfplancheck").add_subparsers()
    >>> add_command(commands, "query", "Show a plan.", "examples: ...", None).prog
    'tfplancheck query'
    """
    parser = commands.add_parser(
        name,
        prog=f"tfplancheck {name}",
        description=description,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.streams = streams
    return parser


def add_coverage_parser(commands: Any, streams: object) -> None:
    """Register ``coverage combine`` (Terraform test coverage data of ``pytest --tf-cov-data``) on ``commands``."""
    from .._plugin.coverage.report import COMBINE_HELP, percent_argument

    parser = add_command(
        commands, "coverage", "Merge Terraform test coverage data files (pytest --tf-cov-data=PATH) into one report.",
        COMBINE_HELP, streams,
    )
    parser.add_argument("action", choices=("combine",), help="combine: merge DATA files into one report")
    parser.add_argument("data", metavar="DATA", nargs="+", type=path_argument, help="coverage data files")
    parser.add_argument("--report", action="append", default=None, metavar="TYPE",
                        help="term (default), json:PATH or html:DIR; may be repeated")
    parser.add_argument("--data-file", metavar="PATH", type=path_argument, help="also write the merged data to PATH")
    parser.add_argument("--fail-under", type=percent_argument, metavar="PERCENT", help="exit 1 when the total is under PERCENT")
    parser.add_argument("--rootdir", metavar="DIR", type=path_argument,
                        help="the pytest rootdir the modules are relative to: where the HTML report reads their files "
                        "(default: the current directory)")
    parser.set_defaults(handler=_combine)


def _combine(args: Any, io: Io) -> int:
    """``coverage combine``, its report files judged first as the check command's are (:func:`reports_clash`): a
    report over a data file it merges, or over the ``--data-file``, would replace it (the ``--data-file`` may be
    one of the data files: the merged data holds it)."""
    from .._plugin.coverage.report import ReportSpecError, coverage_command, parse_report

    try:
        reports = [(kind, target) for kind, target in map(parse_report, args.report or ()) if target is not None]
    except ReportSpecError:
        reports = []  # coverage_command says why
    clash = reports_clash(reports, args.data, {"--data-file": args.data_file}, updated=args.data_file)
    if clash is not None:
        return int(io.fail("usage", clash, False))
    return coverage_command(args, io)


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
        self._secrets = NO_SECRETS
        #: Hear a document read (its ``secrets``) or secrets found during the command: scrubbed from all it prints.
        #: The one record of what a command read: every plan and state made while it runs is heard
        #: (``plancheck._documents.met``), so the streams and the error boundary's line scrub the same secrets.
        #: A run of many plans (:mod:`plancheck.cli._many`) is the exception: each plan's part of the output is
        #: scrubbed of its own secrets by the writers, and the streams hear only the secrets of any plan that the
        #: checks show (printed in every plan's part), not every secret of every plan. Kept as they come: their
        #: secrets are collected when first asked for (:meth:`secrets`).
        self.heard: Callable[[Any], None] = self._heard.append

    def secrets(self) -> Secrets:
        """Every secret heard so far, each document trusting its names (:meth:`Secrets.union`; collected when first
        asked: a command prints little, and late)."""
        if self._heard:
            heard = [item if isinstance(item, Secrets) else getattr(item, "secrets", None) for item in self._heard]
            self._secrets = Secrets.union([self._secrets, *(found for found in heard if isinstance(found, Secrets))])
            self._heard.clear()
        return self._secrets

    def scrub(self, text: str) -> str:
        """``text`` with every secret heard replaced by ``(sensitive)``: what the command's streams write.

        >>> import io
        >>> from plancheck import Secrets
        >>> cli = Io(io.StringIO(), io.StringIO(), None, {})
        >>> cli.heard(Secrets(["hunter2"])); cli.scrub("pw hunter2")
        'pw (sensitive)'
        """
        try:
            return self.secrets().scrub(text)
        except Exception as exc:  # a document that cannot list its secrets: withhold, never leak nor raise here
            return _withheld(exc) + ("\n" if text.endswith("\n") else "")

    def scrubbed(self, text: str) -> str | None:
        """``text`` scrubbed as :meth:`scrub` does (its example holds here too), or None when the secrets
        heard cannot be listed (withhold it).

        What the error boundary words its one line with, before the stream's own scrub.
        """
        try:
            return self.secrets().scrub(text)
        except Exception:  # the document that broke the command may be what cannot give its secrets
            return None

    def error_shown(self, message: str) -> tuple[str, Secrets]:
        """What an error document says, ``message``, and the secrets each of its values is scrubbed of (every
        secret heard); or, when they cannot be listed, the streams' withheld wording in the message's place and
        none: the document's other values are the tool's own (its version, the error's kind), and it stays a
        document of its format.

        >>> import io
        >>> from plancheck import Secrets
        >>> cli = Io(io.StringIO(), io.StringIO(), None, {})
        >>> cli.heard(Secrets(["hunter2"]))
        >>> message, secrets = cli.error_shown("pw hunter2")
        >>> message, secrets.scrub(message)
        ('pw hunter2', 'pw (sensitive)')
        """
        try:
            return message, self.secrets()
        except Exception as exc:  # as scrub(): withhold, never leak nor raise here
            return _withheld(exc), NO_SECRETS

    def rendered(self, document: Mapping[str, Any]) -> Rendered:
        """``document`` as the JSON the command writes: each value scrubbed of every secret heard but the format's
        words (:func:`render_json`), its one scrub (:class:`Rendered`: the streams do not scrub it again).

        When the secrets cannot be listed, this raises what listing them raised, and nothing of the document is
        written: the command fails closed at its boundary (exit status 2, the error document with its message
        withheld, :meth:`error_shown`), as it does when a results document's secrets cannot be listed.

        >>> import io
        >>> from plancheck import Secrets
        >>> cli = Io(io.StringIO(), io.StringIO(), None, {})
        >>> cli.heard(Secrets(["value", "hunter2"]))
        >>> print(cli.rendered({"kind": "value", "value": "pw hunter2"}))
        {
          "kind": "value",
          "value": "pw (sensitive)"
        }
        """
        return Rendered(render_json(document, self.secrets()))

    def out(self, text: str) -> None:
        if text:
            self.stdout.write(Rendered(text + "\n") if isinstance(text, Rendered) else text + "\n")

    def fail(self, kind: str, message: str, json_mode: bool, hint: str = "") -> int:
        self.stderr.write(f"tfplancheck: error: {message}\n" + (f"{hint}\n" if hint else ""))
        if json_mode:
            self.out(error_json(kind, *self.error_shown(message), tool_version()))
        return 2


def _withheld(exc: Exception) -> str:
    """What the command prints in place of a text whose secrets could not be listed (``exc`` said why)."""
    return f"tfplancheck: output withheld: its secrets could not be listed ({type(exc).__name__})"


def add_snapshot_arguments(parser: argparse.ArgumentParser, *, file_option: bool) -> None:
    """``FILE``/``--snapshot FILE``, ``--update`` and ``--ignore`` (shared by ``snapshot`` and ``mock-plan``)."""
    if file_option:
        parser.add_argument("--snapshot", metavar="FILE", type=path_argument, help="compare the plan with this snapshot file "
                            "(exit 1 when it differs)")
    else:
        parser.add_argument("file", metavar="FILE", type=path_argument, help="the snapshot file")
    parser.add_argument("--update", action="store_true", help="write the snapshot file when it is missing or differs")
    parser.add_argument("--ignore", action="append", default=[], metavar="PATH_OR_SELECTOR",
                        help="leave a path or resources out of the snapshot; repeatable (see the examples)")


# -- writing ----------------------------------------------------------------------------------------


class _WriteFailed(Exception):
    """Writing to stdout or stderr failed (closed, a full disk, ...); reported in one line, exit status 2."""

    def __init__(self, stream: str, reason: str) -> None:
        super().__init__(f"cannot write to {stream}: {reason}")
        self.stream = stream
        self.reason = reason


class Rendered(str):
    """Text a writer rendered from values it scrubbed one by one (a text report, or a JSON, JUnit, SARIF, GitHub or
    Markdown document), so the streams do not scrub it again as flat text.

    Each value of such a document was scrubbed before it was serialized and escaped, trusting what its failure
    trusts; a scrub of the serialized text sees what no value holds: keys and words of the format (a secret
    ``plan`` or ``error`` made ``"(sensitive)": {`` and ``"fail_on": "(sensitive)"``, a document its schema
    refuses) and values in their escaped spelling, which no trusted text matches (a check's own path
    ``triggers[&quot;(sensitive)&quot;]``). So a document has one scrub, its values', as the text report has its
    writer's (each piece before it is made one line, then the whole text: ``plancheck.cli._text_report``); in a run
    of many plans, each plan's part is scrubbed of the other plans' secrets its checks show, too
    (``plancheck.cli._output.parts_scrubbed``). An error document is one too (:meth:`Io.error_shown`, its message
    its one value of data), and so is every other JSON document a command writes (``query``'s, ``snapshot``'s,
    ``mock-plan``'s, the version, the catalogue, the waivers: :meth:`Io.rendered`, each value scrubbed of every
    secret heard); anything else written (an error's line, a usage line, ``query``'s and ``mock-plan``'s text) is a
    plain ``str`` and passes the stream's scrub of every secret heard.

    Text added to it is a plain ``str`` again: its final newline is marked anew (``Rendered(text + "\\n")``).

    >>> type(Rendered("{}") + "\\n").__name__, type(Rendered(Rendered("{}") + "\\n")).__name__
    ('str', 'Rendered')
    """


class _Guarded(_stdio.TextIOBase):
    """A text stream whose write failures are :class:`_WriteFailed` (BrokenPipeError is left to the caller).

    ``None`` stands for a stream that is closed (Python's ``sys.stdout`` under ``>&-``).

    >>> _Guarded(None, "standard output").write("x")
    Traceback (most recent call last):
    ...
    plancheck.cli._io._WriteFailed: cannot write to standard output: it is closed
    """

    def __init__(self, stream: TextIO | None, name: str) -> None:
        super().__init__()
        if stream is not None and isinstance(getattr(stream, "buffer", None), _stdio.RawIOBase):
            # A text stream straight over its file (``python -u``, ``PYTHONUNBUFFERED``) ignores a short write: a
            # reader that goes away once 64 KiB fill its pipe (``| head``) takes those, the rest is dropped without
            # an error, and the run ends with its verdict instead of 141. A buffer over the same file writes until
            # all is written or the write fails; the file stays open when it goes (``closefd=False``): the caller's.
            try:
                raw = _stdio.FileIO(stream.fileno(), "w", closefd=False)
            except (OSError, ValueError):  # closed or detached: reported at the first write
                pass
            else:
                stream = _stdio.TextIOWrapper(_stdio.BufferedWriter(raw), encoding=stream.encoding,
                                              errors=stream.errors, line_buffering=True)
        self.stream = stream
        self.name = name
        self.failed = False
        #: The one scrub every write but a :class:`Rendered` document's passes through (:meth:`Io.scrub`, set by
        #: :func:`run`).
        self.scrub: Callable[[str], str] = str

    def write(self, text: str) -> int:
        # Every byte the command line prints passes here: scrubbed of every secret of every document read, then
        # made terminal-safe (controls and bidi shown escaped, only our own colours kept). In that order: a secret
        # holding a control character is found as it is in the document, before escaping changes its spelling.
        # A Rendered document's values were each scrubbed before they were escaped: its one scrub (see Rendered).
        text = terminal_safe(text if isinstance(text, Rendered) else self.scrub(text))
        if self.stream is None:
            raise self._fail(None)
        try:
            try:
                return self.stream.write(text)
            except UnicodeEncodeError:  # a lone surrogate from a file, on a strict stream: show it escaped
                encoding = getattr(self.stream, "encoding", None) or "utf-8"
                return self.stream.write(text.encode(encoding, "backslashreplace").decode(encoding))
        except BrokenPipeError:
            self.failed = True
            raise
        except (OSError, ValueError) as exc:  # ValueError: the stream was closed
            raise self._fail(exc) from None

    def _fail(self, exc: BaseException | None) -> _WriteFailed:
        self.failed = True
        if exc is None:
            return _WriteFailed(self.name, "it is closed")
        if isinstance(exc, OSError) and exc.errno is not None:
            return _WriteFailed(self.name, os.strerror(exc.errno))
        return _WriteFailed(self.name, str(exc) or type(exc).__name__)

    def flush(self) -> None:
        if self.stream is None or self.failed:
            return
        try:
            self.stream.flush()
        except BrokenPipeError:
            self.failed = True
            raise
        except (OSError, ValueError) as exc:
            raise self._fail(exc) from None

    def close(self) -> None:
        """Nothing: the stream is the caller's (and IOBase would flush it again when this is collected)."""

    def isatty(self) -> bool:
        try:
            return self.stream is not None and self.stream.isatty()
        except (OSError, ValueError):
            return False

    def discard(self) -> None:
        """Point the stream's descriptor at /dev/null, so the flush at exit cannot fail again."""
        try:
            fd = self.stream.fileno() if self.stream is not None else -1
        except (OSError, ValueError, AttributeError):  # not a real file (a test's StringIO)
            return
        if fd < 0:
            return
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, fd)
        finally:
            os.close(devnull)


def render_json(document: Mapping[str, Any], secrets: Secrets | None = None) -> str:
    """JSON text of ``document``, each value scrubbed of ``secrets`` but the format's words (:func:`scrubbed_values`;
    none: the values were scrubbed already, as a results document's are). Keys are the format's, never scrubbed.

    What every JSON document the command writes is made by: its one scrub, of each value before it is serialized
    (standard output's and a ``--report`` file's through :meth:`Io.rendered`, the baseline file of the secrets its
    entries were made with).

    >>> from plancheck import Secrets
    >>> print(render_json({"kind": "value", "message": "pw is hunter2"}, Secrets(["hunter2", "value"])))
    {
      "kind": "value",
      "message": "pw is (sensitive)"
    }
    """
    data = document if secrets is None or not len(secrets) else scrubbed_values(document, secrets)
    return json.dumps(data, indent=2, ensure_ascii=False, default=str)


#: The fields of the JSON and SARIF documents whose values are words of the format (``"fail_on": "error"``,
#: ``"actions": ["create"]``: Terraform's, which the loader holds to its words), never data: a value's scrub leaves
#: them as they are, so a secret ``error`` cannot turn them into words no schema knows. (A SARIF part's fingerprint
#: is not among them: the part holds the texts it is made of, scrubbed as any value.)
_FORMAT_WORDS: Final = frozenset({"kind", "fail_on", "severity", "status", "level", "of", "actions"})


def scrubbed_values(document: Mapping[str, Any], secrets: Secrets) -> dict[str, Any]:
    """``document`` (a results document) with every string value scrubbed of ``secrets``, but its format's words.

    A document's one scrub (:class:`Rendered`): of each value, before it is serialized.

    >>> scrubbed_values({"fail_on": "error", "plan": {"source": "error.json"}, "ok": False}, Secrets(["error"]))
    {'fail_on': 'error', 'plan': {'source': '(sensitive).json'}, 'ok': False}
    """
    scrubbed: dict[str, Any] = copy_json(
        document, leaf=lambda value: secrets.scrub(value) if isinstance(value, str) else value, keep=_FORMAT_WORDS)
    return scrubbed


def error_json(kind: str, message: str, secrets: Secrets, tool_version: str) -> Rendered:
    """The JSON error document (:func:`error_document`), each value scrubbed of ``secrets`` but the format's words:
    rendered (:class:`Rendered`), as a results document is, so no secret equal to one of its keys or words
    (``message``, ``kind``) turns it into a document its schema refuses.

    >>> print(error_json("plan", "message: bad", Secrets(["message", "plan"]), "0.1.0"))  # doctest: +ELLIPSIS
    {...
      "error": {
        "kind": "plan",
        "message": "(sensitive): bad"
      }
    }
    """
    return Rendered(render_json(error_document(kind, message, tool_version), secrets))


def error_document(kind: str, message: str, tool_version: str) -> dict[str, Any]:
    """The JSON document reporting a usage, plan, checks-file or terraform error (exit status 2).

    >>> error_document("plan", "p.json: bad", "0.1.0")["error"]
    {'kind': 'plan', 'message': 'p.json: bad'}
    """
    return {
        "schema_version": SCHEMA_VERSION,
        "kind": "error",
        "tool_version": tool_version,
        "ok": False,
        "error": {"kind": kind, "message": message},
    }


# -- reading ----------------------------------------------------------------------------------------


class UnreadableInput(Exception):
    """A plan or checks file that could not be read: ``reason`` says why, ``limit`` when it was too large.

    >>> str(UnreadableInput("plan", "standard input is closed"))
    'cannot read the plan: standard input is closed'
    >>> str(UnreadableInput("checks file", "", limit=30))
    'the checks file is larger than 30 bytes (raise the limit with --max-bytes or PLANCHECK_MAX_BYTES)'
    """

    def __init__(self, what: str, reason: str, *, limit: int | None = None) -> None:
        self.what = what
        self.reason = reason
        self.limit = limit
        if limit is not None:
            text = f"the {what} is larger than {limit} bytes (raise the limit with --max-bytes or {MAX_BYTES_ENV})"
        else:
            text = f"cannot read the {what}: {reason}"
        super().__init__(text)


class _ReadFailed(DocumentFormatError):
    """The loader's report of a file or stream it could not read (told apart from other format errors)."""


def read_input(name: str, what: str, *, limit: int, stdin: IO[bytes] | None = None) -> bytes:
    """The bytes of file ``name`` (``-``: ``stdin``, else the process's standard input), at most ``limit``.

    >>> import io
    >>> read_input("-", "plan", limit=10, stdin=io.BytesIO(b"{}"))
    b'{}'
    >>> read_input("-", "plan", limit=4, stdin=io.BytesIO(b"[1, 2, 3]"))
    Traceback (most recent call last):
    ...
    plancheck.cli._io.UnreadableInput: the plan is larger than 4 bytes (raise the limit with --max-bytes or PLANCHECK_MAX_BYTES)
    """
    # Imported here, not at the top: --version and --help, which read nothing, do without the loader.
    from .._loading.source import read_bytes

    source: str | IO[bytes] | None = name
    if name == "-":
        source = stdin if stdin is not None else getattr(sys.stdin, "buffer", None)
        if source is None:  # started with stdin closed (`<&-`)
            raise UnreadableInput(what, "standard input is closed")
    try:
        data, _ = read_bytes(source, _ReadFailed, what, "tfplancheck", limit, typed=True)
    except _ReadFailed as exc:
        if exc.found == InputTooLarge(limit).found:
            raise UnreadableInput(what, exc.found, limit=limit) from None
        raise UnreadableInput(what, exc.found or exc.expected) from None
    except OSError as exc:  # a stream that fails while it is read
        raise UnreadableInput(what, exc.strerror or str(exc)) from None
    except TypeError as exc:  # read() returned neither bytes nor str
        raise UnreadableInput(what, str(exc)) from None
    if not isinstance(data, bytes):  # a text stream
        raise UnreadableInput(what, f"expected bytes, read {type(data).__name__}")
    return data


#: How the loader's refusal of a state read as a plan ends (plancheck._loading.validate.check_kind).
_STATE_NOT_PLAN: Final = "this is a state, not a plan (use load_state)"
_CLI_STATE_NOT_PLAN: Final = (
    "this is a state (the JSON of `terraform show -json` with no plan file), not a plan: tfplancheck checks "
    "plans; give it a plan file (`terraform plan -out=tfplan`) or its JSON (`terraform show -json tfplan`)"
)
_CLI_EMPTY_STATE: Final = (
    "expected a plan, found a document of none of a plan's keys (no \"planned_values\", which every plan "
    "Terraform and OpenTofu write holds): the JSON of `terraform show -json` with no plan file, where there is no "
    "state yet; give it a plan file (`terraform plan -out=tfplan`) or its JSON (`terraform show -json tfplan`)"
)
#: What the command reads, said where it was given something else.
_CLI_READS: Final = "tfplancheck reads a plan file (`terraform plan -out=tfplan`) or its JSON (`terraform show -json tfplan`), "
#: Appended to the loader's words for an input that does not even start as JSON (`terraform show tfplan`'s text, a
#: saved `terraform plan` log, a .tf file): what the command reads instead.
_CLI_NOT_JSON: Final = _CLI_READS + "not Terraform's text output or a configuration"
#: Appended when the plan named is a directory: a newcomer's first try is the configuration's own.
_CLI_DIRECTORY: Final = (
    _CLI_READS + "not a configuration's directory (`tfplancheck mock-plan DIR` plans one, with mocked providers)"
)


class CliError(Exception):
    """A user error the command line reports in one line and exits 2 for.

    >>> str(CliError("plan", "plan.json: not found"))
    'plan.json: not found'
    """

    def __init__(self, kind: str, message: str) -> None:
        self.kind = kind
        self.message = message
        super().__init__(message)


def read_plan(
    name: str,
    *,
    terraform: str | None = None,
    stdin: IO[bytes] | None = None,
    environ: Mapping[str, str] | None = None,
    max_bytes: int | None = None,
    allow_errored: bool = False,
    chdir: str | None = None,
) -> Plan:
    """Load the plan ``name`` (a path, or ``-`` for stdin), JSON or binary; raise CliError on any problem.

    A binary plan is shown by ``terraform show -json`` in ``chdir`` (``--chdir DIR``), by default the plan
    file's directory (the current one for stdin), where ``terraform init`` installed its providers.

    A plan Terraform wrote although planning failed (``"errored": true``) is refused, naming the file,
    unless ``allow_errored`` (``--allow-errored``): the loader's one check, as for every front end.

    A plan (or the JSON ``terraform show`` makes of a binary one) longer than ``max_bytes`` (default:
    the loader's, ``PLANCHECK_MAX_BYTES`` or 2 GiB) is refused after reading no more than that, so an
    endless input such as ``/dev/zero`` ends in an error, not in running out of memory. The loader
    reads the plan once (:func:`read_input`); a binary plan, told by its first bytes (the loader's
    :func:`~plancheck._loading.source.is_saved_plan`), is given to ``_terraform.planfile.plan_json`` for its JSON
    (a JSON plan never passes there), and the bytes become a plan once, by :func:`plancheck.load_plan`'s own step.
    """
    from .._documents.plan import Plan
    from .._loading.jsontext import without_hint
    from .._loading.source import is_saved_plan
    from .._loading.validate import PLAN_KEYS

    limit = max_input_bytes(max_bytes)
    source = "<stdin>" if name == "-" else name
    try:
        data = read_input(name, "plan", limit=limit, stdin=stdin)
        if is_saved_plan(data):
            data = _shown_plan(name, data, limit, terraform, os.environ if environ is None else environ, chdir)
    except UnreadableInput as exc:
        if name != "-" and os.path.isdir(name):
            raise CliError("plan", f"{source}: {exc}; {_CLI_DIRECTORY}") from None
        raise CliError("plan", f"{source}: {exc}") from None
    if not data.strip():
        raise CliError("plan", f"{source}: the plan is empty (expected the JSON of `terraform show -json PLANFILE`)")
    try:
        plan = Plan._from_bytes([data], source, allow_errored=allow_errored)
    except DocumentFormatError as exc:  # PlanFormatError, or any other the loader raises for a bad document
        if exc.location == "$" and (exc.found or "").endswith(_STATE_NOT_PLAN):
            # The loader's words are the Python API's (load_state): the command line says what to give it.
            raise CliError("plan", f"{source}: {_CLI_STATE_NOT_PLAN}") from None
        # The loader's hint for text that is not JSON names the Python API's sources; the command line names its own.
        words = without_hint(exc)
        if exc.location == "$" and "invalid JSON" in (exc.found or "") and data.lstrip()[:1] not in (b"{", b"["):
            raise CliError("plan", f"{words}; {_CLI_NOT_JSON}") from None
        raise CliError("plan", words) from None
    except (RecursionError, ArithmeticError, ValueError) as exc:
        # The loader types its errors; should one still escape, it is the document's fault, not a traceback.
        raise CliError("plan", f"{source}: cannot read the plan: {exception_text(exc)}") from None
    if not any(key in plan.raw for key in PLAN_KEYS):  # see PLAN_KEYS
        raise CliError("plan", f"{source}: {_CLI_EMPTY_STATE}")
    return plan


def _shown_plan(name: str, data: bytes, limit: int, terraform: str | None, environ: Mapping[str, str],
                chdir: str | None) -> bytes:
    """The JSON ``terraform show -json`` prints for binary plan ``name`` (its bytes ``data``), held to ``limit`` as
    a JSON plan is; a :class:`CliError` in the command line's words when it cannot be shown."""
    from .._terraform.planfile import BinaryPlanError, plan_json

    try:
        return plan_json(name, data, limit=limit, terraform=terraform, environ=environ, cwd=chdir, hint="--chdir DIR")
    except InputTooLarge:
        source = "<stdin>" if name == "-" else name
        raise CliError("plan", f"{source}: {UnreadableInput('plan', '', limit=limit)}") from None
    except BinaryPlanError as exc:
        # The command line's words: the file is named when no binary was found, else the binary's problem.
        raise CliError("terraform", str(exc) if exc.found is None else exc.found) from None


# -- report files: --report FORMAT=FILE ------------------------------------------------------------


def reports_clash(reports: Sequence[tuple[str, str]], inputs: Sequence[str | None],
                  written: Mapping[str, str | None] | None = None, *, updated: str | None = None) -> str | None:
    """Why the files a run writes cannot be written as given, else None: a ``--report`` file named twice, an input,
    or a file another option writes (``written`` maps such an option to its file), and such an option's file that is
    an input, except ``updated``: the one input they may write back (``--baseline F --write-baseline F``).

    >>> reports_clash([("junit", "r.xml"), ("sarif", "r.xml")], ["plan.json"])
    '--report r.xml: the file is named by another --report too'
    >>> reports_clash([("junit", "b.json")], ["plan.json"], {"--write-baseline": "b.json"})
    '--report b.json: the file is written by --write-baseline too'
    >>> reports_clash([], ["plan.json"], {"--write-baseline": "plan.json"})
    '--write-baseline plan.json: the file is an input of the run (it would be overwritten)'
    """
    files = {option: name for option, name in (written or {}).items() if name is not None}
    if not reports and not files:  # nothing that writes a file, so nothing can clash
        return None
    seen: set[object] = set()
    given = {_file_identity(name) for name in inputs if name not in (None, "-")}
    others = {_file_identity(name): option for option, name in files.items()}
    for option, name in files.items():
        where = _file_identity(name)
        if where in given and (updated is None or where != _file_identity(updated)):
            return f"{option} {name}: the file is an input of the run (it would be overwritten)"
    for _, filename in reports:
        where = _file_identity(filename)
        if where in seen:
            return f"--report {filename}: the file is named by another --report too"
        if where in given:
            return f"--report {filename}: the file is an input of the run (it would be overwritten)"
        if where in others:
            return f"--report {filename}: the file is written by {others[where]} too"
        seen.add(where)
    return None


def _file_identity(name: str) -> object:
    """What the file ``name`` is, however it is reached: a regular file's device and inode (a symbolic or hard
    link to a plan is the plan, and a report written through it would overwrite it), a missing file's path with
    every link in it resolved, and anything else's path as given.

    >>> _file_identity("no/such/dir/r.xml") == _file_identity("no/such/../such/dir/r.xml")
    True
    """
    try:
        status = regular_file(name)
    except (OSError, ValueError):
        status = None
    if status is None:
        return os.path.realpath(name)
    if status is False:
        # A device or a pipe (--report junit=/dev/stderr) is written to, never overwritten: /dev/stdout and
        # /dev/stderr are two reports even when both streams are one pipe.
        return os.path.abspath(name)
    return (status.st_dev, status.st_ino)


def write_report(io: Io, filename: str, text: str) -> None:
    """Write a --report file, its text passed through what standard output passes through (:class:`_Guarded` with
    :meth:`Io.scrub`: every secret heard scrubbed, then made terminal-safe), whole or not at all (a full disk leaves
    the old report); a :class:`_WriteFailed` if it cannot be."""
    shown = _stdio.StringIO()
    stream = _Guarded(shown, f"the report file {filename}")
    stream.scrub = io.scrub
    stream.write(Rendered(text + "\n") if isinstance(text, Rendered) else text + "\n")
    try:
        write_whole(filename, shown.getvalue())
    except OSError as exc:
        raise _WriteFailed(stream.name, os.strerror(exc.errno) if exc.errno is not None else str(exc)) from None


# -- snapshot: a plan compared with (or written to) its snapshot file ---------------------------------


class SnapshotUsageError(Exception):
    """A bad ``--ignore`` or key: reported in one line, exit status 2."""


def snapshot_ignore(specs: Sequence[str]) -> list[Any]:
    from ..snapshot import parse_ignore_spec

    entries = []
    for spec in specs:
        try:
            entries.append(parse_ignore_spec(spec))
        except ValueError as exc:
            raise SnapshotUsageError(f"--ignore {exc}") from None
    return entries


def compare_snapshot(plan: Plan, file: str, *, update: bool, ignore: Sequence[str], io: Io,
                     max_bytes: int | None = None) -> tuple[int, list[str]]:
    """Compare (or write) the snapshot of ``plan`` in ``file``: (exit status, lines to print).

    The lines end with one naming what happened (see :func:`snapshot_document`).

    Raises :class:`SnapshotUsageError` for a bad ``--ignore`` or key, and
    :class:`plancheck.snapshot.SnapshotFormatError` for a file that is no snapshot.
    """
    from ..snapshot import IgnoreSpec, build, check_file, resolve_key

    entries = snapshot_ignore(ignore)
    try:
        key = resolve_key(None, io.environ)
    except ValueError as exc:
        raise SnapshotUsageError(str(exc)) from None
    text = build(plan, IgnoreSpec(entries, "--ignore"), key)
    outcome = check_file(text, plan.secrets, file, update=update, max_bytes=max_bytes)
    count = len(outcome.lines)
    differences = f"{count} difference{'' if count == 1 else 's'}"
    if outcome.status == "same":
        return 0, [f"{file}: the plan matches its snapshot"]
    if outcome.status == "written":
        return 0, [f"{file}: wrote the snapshot"]
    if outcome.status == "updated":
        return 0, [*outcome.lines, f"{file}: updated the snapshot ({differences})"]
    if outcome.status == "missing":
        raise SnapshotUsageError(f"{file}: no snapshot yet: write it with --update")
    return 1, [*outcome.lines, f"{file}: the plan differs from its snapshot ({differences}; accept them with --update)"]


def snapshot_document(file: str, status: int, lines: Sequence[str]) -> dict[str, Any]:
    """The ``snapshot`` outcome of :func:`compare_snapshot` for the JSON output: file, status word, ok, lines.

    >>> snapshot_document("p.snap", 0, ["p.snap: wrote the snapshot"])["status"]
    'written'
    >>> snapshot_document("p.snap", 1, ["a: 1 -> 2", "p.snap: the plan differs from its snapshot (1 difference)"])["ok"]
    False
    """
    last = lines[-1] if lines else ""
    word = ("differs" if status else "written" if last.endswith(": wrote the snapshot")
            else "updated" if ": updated the snapshot (" in last else "same")
    return {"file": file, "status": word, "ok": status == 0, "lines": list(lines)}


# -- many plans, one run: each plan read and checked in a worker ------------------------------------
#
# ``tfplancheck PLAN [PLAN ...]``: each plan is read (a binary one shown by Terraform) and checked by
# :func:`check_plan`, in ``--jobs`` worker processes (:func:`plancheck._terraform.lifecycle.run_in_workers`;
# ``--jobs 1``: one after the other here). What comes back is small: the plan's facts (:class:`PlanFacts`: its
# source, flags and secrets, scanner included) and its results, not the plan; in the order the plans were given,
# so every output is the same bytes whatever the number of workers. A plan that cannot be read is a
# :class:`PlanFailed` in its place, and the others are checked all the same.


def job_count(text: str) -> int:
    """A --jobs value: a positive number of worker processes.

    >>> job_count("2")
    2
    >>> job_count("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: invalid job count '0' (a positive number of worker processes)
    """
    if not text.strip().isdigit() or int(text) == 0 or len(text.strip()) > 6:
        raise argparse.ArgumentTypeError(f"invalid job count {text!r} (a positive number of worker processes)")
    return int(text)


class PlanFacts(ReadOnly):
    """What the reports say of a plan besides its results: its source, its flags and its secrets.

    A :class:`~plancheck.cli._runs.PlanRun` holds the :class:`Plan` itself or these; a worker process checking one of many plans
    hands these back (they pickle, the whole plan need not travel), and the reports read the same fields
    of either.

    >>> from plancheck import Plan
    >>> facts = PlanFacts.of(Plan.from_dict({"format_version": "1.2", "errored": True}, source="p.json", allow_errored=True))
    >>> facts.source, facts.partial, facts.partial_note == PARTIAL_NOTE
    ('p.json', True, True)
    >>> import pickle
    >>> pickle.loads(pickle.dumps(facts)).errored
    True
    """

    __slots__ = ("applyable", "complete", "errored", "format_version", "secrets", "source", "terraform_version")
    source: str | None
    format_version: str
    terraform_version: str | None
    errored: bool | None
    complete: bool | None
    applyable: bool | None
    secrets: Secrets

    def __init__(self, source: str | None, format_version: str, terraform_version: str | None, errored: bool | None,
                 complete: bool | None, applyable: bool | None, secrets: Secrets) -> None:
        self._set(source=source, format_version=format_version, terraform_version=terraform_version, errored=errored,
                  complete=complete, applyable=applyable, secrets=secrets)

    @classmethod
    def of(cls, plan: Plan | PlanFacts) -> PlanFacts:
        """The facts of ``plan`` (its secrets collected now, and held apart from the plan: the facts of many plans
        do not keep their documents alive, in a worker or with ``--jobs 1``)."""
        return cls(plan.source, plan.format_version, plan.terraform_version, plan.errored, plan.complete,
                   plan.applyable, secrets_from_state(*secrets_state(plan.secrets)))

    @property
    def partial(self) -> bool:
        """As :attr:`Plan.partial`: planning failed, and the plan was read with ``--allow-errored``."""
        return self.errored is True

    @property
    def partial_note(self) -> str | None:
        """As :attr:`Plan.partial_note`."""
        return PARTIAL_NOTE if self.partial else None

    def __reduce__(self) -> tuple[Any, ...]:
        # The facts hand their secrets to the process that writes the output, through the command's own pipe, with
        # the scanner already built (secrets_state): a plain pickle of Secrets would make that process build it again.
        return (_facts, (self.source, self.format_version, self.terraform_version, self.errored, self.complete,
                         self.applyable, secrets_state(self.secrets)))


def _facts(source: str | None, format_version: str, terraform_version: str | None, errored: bool | None,
           complete: bool | None, applyable: bool | None, secrets: tuple[tuple[str, ...], frozenset[str]]) -> PlanFacts:
    return PlanFacts(source, format_version, terraform_version, errored, complete, applyable, secrets_from_state(*secrets))


@frozen
class PlanFailed(FrozenValue):
    """A plan of many that could not be checked (bad input: exit status 2), in its place among the others.

    ``kind`` and ``message`` are what the error document of a run of that plan alone says.

    >>> PlanFailed("b.json", "plan", "b.json: invalid JSON").name
    'b.json'
    """

    source: str
    kind: str
    message: str

    @property
    def name(self) -> str:
        """The plan's name in the reports, as :attr:`PlanRun.name`."""
        return self.source

    def text(self) -> str:
        """The error, one line (a plan's own words are scrubbed already: it could not be read)."""
        return one_line(self.message)


@frozen
class PlanParts(FrozenValue):
    """A plan checked and rendered by its worker: its exit status and its part of each format the run writes
    (keyed as ``plancheck.cli._output.part_keys`` says), each scrubbed of its own secrets already; so the
    process writing the output only joins the parts, and neither the results nor the secrets travel.

    >>> PlanParts("a.json", 0, ((("github", "error"), ([], "tfplancheck: a.json: 0 checks: 0 passed, 0 failed")),)).part(("github", "error"))[1]
    'tfplancheck: a.json: 0 checks: 0 passed, 0 failed'
    """

    source: str
    status: int
    parts: tuple[tuple[tuple[Any, ...], Any], ...]
    #: As :attr:`Outcome.crossing`.
    crossing: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """The plan's name, as :attr:`PlanFailed.name`."""
        return self.source

    def part(self, key: tuple[Any, ...]) -> Any:
        """The part rendered for ``key``."""
        return dict(self.parts)[key]


@frozen
class Job(FrozenValue):
    """What checking one plan needs, the same for every plan of the run (a worker has it from its parent, forked).

    >>> import datetime
    >>> Job((), None, {}, 1024, False, None, datetime.date(2027, 1, 31)).max_bytes
    1024
    """

    specs: tuple[Any, ...]
    terraform: str | None
    environ: Mapping[str, str]
    max_bytes: int
    allow_errored: bool
    chdir: str | None
    today: datetime.date
    stdin: IO[bytes] | None = None
    #: The checks as text (:func:`checks_text`): what every plan's part of the output may show of them.
    checks: str = ""
    #: The parts of the output each plan's worker renders (``plancheck.cli._output.part_keys``): a plan then comes
    #: back as its :class:`PlanParts`; none (a baseline judges all the plans together): as its :class:`Outcome`.
    parts: tuple[tuple[Any, ...], ...] = ()
    #: ``--fail-on``: what a rendered plan's exit status counts.
    fail_on: str = "error"
    #: ``TFPLANCHECK_SNAPSHOT_KEY``, by which a waiver names an instance keyed by a secret (None: not set).
    key: Any = None


@frozen
class Outcome(FrozenValue):
    """A plan checked: its facts and its results, each without its check (the parent holds the checks, in order),
    and its secrets that the checks show (``crossing``: the other plans' parts show the checks too).

    >>> from plancheck import Secrets
    >>> Outcome(PlanFacts(None, "1.2", None, None, None, None, Secrets()), ()).results
    ()
    """

    facts: PlanFacts
    results: tuple[Any, ...]
    crossing: tuple[str, ...] = ()


def checks_text(specs: Sequence[Any]) -> str:
    """What the output may show of ``specs`` in any plan's part: each check's type, origin, arguments (the check's
    repr: its matchers), waivers, address and path. Not its severity: the reports show it only as a word of their
    format, which no scrub changes (so a plan's secret ``error`` is not one the checks show).

    >>> from plancheck.cli._checksfile import CheckSpec
    >>> print(checks_text([CheckSpec("ExpectEmptyPlan", None, "c.toml:1 check[0]", address="a.b")]))
    ExpectEmptyPlan
    c.toml:1 check[0]
    None
    ()
    a.b
    <BLANKLINE>
    """
    return "\n".join(f"{spec.type}\n{spec.origin}\n{spec.check!r}\n{spec.waivers!r}\n{spec.address or ''}\n"
                     f"{spec.path.to_text() if spec.path is not None else ''}" for spec in specs)


def crossing_secrets(secrets: Secrets, text: str) -> tuple[str, ...]:
    """The secrets of ``secrets`` that ``text`` shows (a piece of one, as the scrub finds it): mostly none, found
    with the plan's own scanner (built anyway), each then told apart only when there is one.

    >>> from plancheck import Secrets
    >>> crossing_secrets(Secrets(["hunter2-key", "other-pw"]), "address = a.b[hunter2-key]")
    ('hunter2-key',)
    """
    if not text or not secrets.touches(text):
        return ()
    return tuple(value for value in secrets.ordered if Secrets([value]).touches(text))


# -- what a run prints: its streams' colours, its results, its error in every format ------------------

_LABELS: Final = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "warn": "WARN", "note": "NOTE", "waived": "WAIVED",
                  "known": "KNOWN"}


def use_colour(stream: TextIO, environ: Mapping[str, str], choice: str = "auto") -> bool:
    """Whether to colour output: ``always``/``never``, else only on a terminal with ``NO_COLOR`` unset or empty.

    >>> import io
    >>> use_colour(io.StringIO(), {}), use_colour(io.StringIO(), {}, "always")
    (False, True)
    """
    if choice == "always":
        return True
    if choice == "never":
        return False
    if environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except (ValueError, OSError):  # a closed or detached stream
        return False


#: The SGR code of each colour a :class:`Style` paints.
_CODES: Final = {"pass": 32, "fail": 31, "error": 33, "warn": 35, "note": 36, "waived": 34, "known": 2, "dim": 2,
                 "bold": 1}


@frozen
class Style(FrozenValue):
    """ANSI colours, or nothing.

    A colour is a :func:`~plancheck._text.style_mark`, made an escape sequence by the command's stream
    (:func:`~plancheck._text.terminal_safe`), which shows every other control character escaped: so text from
    the plan cannot restyle, erase or rewrite a line, and our colours still work.

    >>> from plancheck._text import terminal_safe
    >>> Style(False).paint("fail"), terminal_safe(Style(True).paint("pass")), Style(False).paint("dim", "0 failed")
    ('FAIL', '\\x1b[32mPASS\\x1b[0m', '0 failed')
    """

    enabled: bool

    def paint(self, what: str, text: str | None = None) -> str:
        """``text`` in the colour for ``what``; without ``text``, the label of status ``what`` (PASS, FAIL, ...)."""
        text = _LABELS[what] if text is None else text
        return f"{style_mark(_CODES[what])}{text}{style_mark(0)}" if self.enabled else text


def plan_notes(plan: Plan | PlanFacts, *, quiet: bool = False) -> list[str]:
    """What the summary says about the plan itself: partial (always), not complete, not applyable (not with ``quiet``).

    >>> from plancheck import Plan
    >>> plan_notes(Plan.from_dict({"format_version": "1.2", "complete": False, "applyable": False}))
    ['the plan is not complete ("complete": false): another plan and apply are needed to converge', 'the plan is not applyable ("applyable": false): terraform apply would refuse it']
    >>> plan_notes(Plan.from_dict({"format_version": "1.2", "complete": False}), quiet=True)
    []
    """
    notes = [plan.partial_note] if plan.partial_note is not None else []
    if not quiet and plan.complete is False:
        notes.append('the plan is not complete ("complete": false): another plan and apply are needed to converge')
    if not quiet and plan.applyable is False:
        notes.append('the plan is not applyable ("applyable": false): terraform apply would refuse it')
    return notes


def plan_summary(plan: Plan | PlanFacts) -> dict[str, Any]:
    """What the verdicts stand on, as the JSON documents say it (``plan``): the plan's source and flags.

    >>> from plancheck import Plan
    >>> plan_summary(Plan.from_dict({"format_version": "1.2", "errored": True}, allow_errored=True))["partial"]
    True
    """
    return {
        "source": plan.source,
        "format_version": plan.format_version,
        "terraform_version": plan.terraform_version,
        "errored": plan.errored,
        "complete": plan.complete,
        "applyable": plan.applyable,
        "partial": plan.partial,
    }
