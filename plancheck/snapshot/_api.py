"""The three things to do with a snapshot: render a plan, compare two, hold a plan to its file.

Snapshot files are read whole or refused with a located error, and written atomically, never half.
A file is read up to the size limit (``PLANCHECK_MAX_BYTES``, else 2 GiB, as plans are); one
that is larger, not UTF-8 text, or unreadable is a :class:`SnapshotFormatError` naming it. A file
is written as every output file is (:func:`plancheck._loading.source.write_whole`): to a temporary
file beside it, flushed to disk, then renamed over the old one, so a reader sees the old snapshot
or the new one, never a mix, and an interrupted write leaves the old one in place; through a
symbolic link, the file it names is rewritten (the link kept), and a device or a pipe is written
to, not replaced.
"""

from __future__ import annotations

import os
from typing import Any, Final

from .._documents.plan import Plan
from .._errors import ArgumentError
from .._frozen import FrozenValue, frozen, public
from .._loading.collector import collector_off
from .._loading.source import MAX_BYTES_ENV, max_input_bytes, why_unopened, write_whole
from .._redact import NO_SECRETS, Secrets, revealing_sensitive
from ._compare import review, scrubbed_error
from ._errors import SnapshotFormatError, SnapshotMismatchError, SnapshotMissingError
from ._render import IgnoreSpec, render_snapshot
from ._secrets import FingerprintKey, resolve_key

__all__ = [
    "FileOutcome",
    "Unreadable",
    "assert_matches",
    "build",
    "check_file",
    "diff",
    "read_snapshot_file",
    "render",
    "unreadable",
    "unreadable_error",
    "write_snapshot_file",
]

_NO_IGNORE: Final = ()
_BOM: Final = "\ufeff"
#: What a failure says to repair a file that cannot be read.
_REPAIR_HINT = "rewrite it with --snapshot-update"


def _plan(plan: object, owner: str) -> Plan:
    if not isinstance(plan, Plan):
        raise ArgumentError(
            f"{owner} plan must be a plancheck.Plan, got {type(plan).__name__} (load it with plancheck.load_plan)"
        )
    return plan


def _argument(value: object, kind: type | tuple[type, ...], what: str, owner: str, hint: str = "") -> None:
    """Refuse an argument ``what`` of ``owner`` that is not a ``kind`` (``what`` names it in the message), before
    it fails deep inside as an AttributeError, or is taken for true (``update="no"``)."""
    if not isinstance(value, kind):
        raise ArgumentError(f"{owner} {what}, got {type(value).__name__}{hint}")


def _file(file: object, owner: str) -> str:
    if not isinstance(file, (str, os.PathLike)):
        raise ArgumentError(f"{owner} file must be a str or a path object, got {type(file).__name__}")
    return os.fspath(file)


@public("plancheck.snapshot")
def build(plan: Plan, ignore: IgnoreSpec, key: FingerprintKey | None) -> str:
    """The snapshot text of ``plan``, with an ``ignore`` list and a key made beforehand: :func:`render`'s step.

    For a front end of your own (the command line is one): ``ignore`` is an :class:`IgnoreSpec`
    (its errors name your option), ``key`` what :func:`resolve_key` found in your environment.
    Never revealing a secret, whatever the caller reveals elsewhere.

    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "output_changes": {"ip": {"actions": ["create"],
    ...     "after": "10.0.0.1"}}})
    >>> print(build(plan, IgnoreSpec([], "--ignore"), resolve_key(None, {})).splitlines()[-1])
      value = "10.0.0.1"
    """
    checked = _plan(plan, "build()")
    _argument(ignore, IgnoreSpec, "ignore must be a plancheck.snapshot.IgnoreSpec", "build()")
    _argument(key, (FingerprintKey, type(None)), "key must be a plancheck.snapshot.FingerprintKey or None", "build()",
              " (make it with resolve_key)")
    with revealing_sensitive(False), collector_off():  # the render makes no cycle: see collector_off
        return render_snapshot(checked, ignore, key)


@public("plancheck.snapshot")
def render(plan: Plan, ignore: Any = _NO_IGNORE, *, key: str | bytes | None = None) -> str:
    """The snapshot of ``plan``: a canonical, reviewable text that holds no secret.

    One block per resource change (by address; a deposed object as ``(deposed N)``), data source
    read during the plan, and output: its action, why, the paths forcing replacement, and its
    planned values one per line (``(known after apply)``, ``(sensitive)``; an absent attribute has
    no line). The same plan always renders the same text, whatever the order of its document.
    ``ignore`` leaves out paths (everywhere, or in the resources a ``(Resources, path)`` pair
    selects) and whole resources (a :class:`plancheck.Resources`). With ``key`` (or
    ``TFPLANCHECK_SNAPSHOT_KEY`` set), each sensitive value is a fingerprint under that key.

    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [{"address": "null_resource.a",
    ...     "change": {"actions": ["create"], "after": {"triggers": {"pw": "hunter2", "k": "v"}, "tags": None},
    ...                "after_unknown": {"id": True}, "after_sensitive": {"triggers": {"pw": True}}}}]})
    >>> print(render(plan, key=None), end="")  # doctest: +NORMALIZE_WHITESPACE
    # tfplancheck plan snapshot 1
    # One planned value per line: (known after apply) is unknown, (sensitive) hidden, no line absent.
    <BLANKLINE>
    resource null_resource.a
      action: create
      id = (known after apply)
      tags = null
      triggers["k"] = "v"
      triggers["pw"] = (sensitive)
    """
    return build(_plan(plan, "render()"), IgnoreSpec(ignore, "render()"), resolve_key(key))


def _side(value: object, name: str, ignore: IgnoreSpec, key: FingerprintKey | None) -> tuple[str, str | None, Secrets]:
    """A side of a diff as snapshot text, the file it came from, and the secrets it knows."""
    if isinstance(value, Plan):
        return build(value, ignore, key), None, value.secrets
    if isinstance(value, str):
        return value, None, NO_SECRETS
    if isinstance(value, os.PathLike):
        file = os.fspath(value)
        text = read_snapshot_file(file)
        if text is None:
            raise SnapshotFormatError(file, None, "a snapshot file", found="no such file")
        return text, file, NO_SECRETS
    raise ArgumentError(
        f"diff() {name} must be a plancheck.Plan, a snapshot's text (str) or a snapshot file (a path object), "
        f"got {type(value).__name__}"
    )


@public("plancheck.snapshot")
def diff(old: Any, new: Any, *, ignore: Any = _NO_IGNORE, key: str | bytes | None = None) -> list[str]:
    """The differences from ``old`` to ``new``, one review comment each, in a fixed order.

    Each side is a :class:`plancheck.Plan`, a snapshot's text, or a snapshot file (a
    ``pathlib.Path``). Two plans are compared with a key made for the call, so a changed secret
    shows (``(sensitive) -> (sensitive, changed)``) and no secret does; against a text, a plan is
    rendered with ``key`` (or ``TFPLANCHECK_SNAPSHOT_KEY``), and a secret's change shows only if
    the text was written with the same key. ``ignore`` applies to the plans (see :func:`render`).

    >>> from plancheck import Plan
    >>> def plan(name, pw):
    ...     return Plan.from_dict({"format_version": "1.2", "resource_changes": [{"address": "cloud_bucket.logs",
    ...         "change": {"actions": ["create"], "after": {"name": name, "pw": pw}, "after_sensitive": {"pw": True}}}]})
    >>> diff(plan("logs", "hunter2"), plan("logs2", "hunter3"))
    ['cloud_bucket.logs: name: "logs" -> "logs2"', 'cloud_bucket.logs: pw: (sensitive) -> (sensitive, changed)']
    """
    spec = IgnoreSpec(ignore, "diff()")
    chosen = resolve_key(key)
    if chosen is None and isinstance(old, Plan) and isinstance(new, Plan):
        chosen = FingerprintKey(os.urandom(32))
    before, before_file, old_secrets = _side(old, "old", spec, chosen)
    after, after_file, new_secrets = _side(new, "new", spec, chosen)
    lines, _ = review(before, after, old_secrets | new_secrets, before_file, after_file)
    return lines


@public("plancheck.snapshot")
@frozen
class FileOutcome(FrozenValue):
    """What :func:`check_file` found: ``same``, ``different``, ``missing``, ``written`` or ``updated``, and the differences.

    >>> FileOutcome("missing", ()).ok
    False
    """

    status: str
    lines: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """Whether the file now holds the plan's snapshot (it matched, or was written)."""
        return self.status in ("same", "written", "updated")


@public("plancheck.snapshot")
def check_file(
    text: str, secrets: Secrets, file: str | os.PathLike[str], *, update: bool, max_bytes: int | None = None
) -> FileOutcome:
    """Compare the snapshot ``text`` with the file; with ``update``, write it there when it is missing or different.

    :func:`assert_matches` without the raising, for a front end of your own that reports what it
    found (the command line does): ``text`` is :func:`build`'s, ``secrets`` the plan's
    (:attr:`plancheck.Plan.secrets`). The texts are compared first; only when they differ are both
    read as structures. Differences and errors are scrubbed of ``secrets`` (a hand-edited file
    could hold anything), and of the file's own values at paths the plan marks sensitive. A file
    larger than ``max_bytes`` (default: ``PLANCHECK_MAX_BYTES``, else 2 GiB), or that is no
    snapshot, raises :class:`SnapshotFormatError`.

    >>> import pathlib, tempfile
    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "output_changes": {"ip": {"actions": ["create"],
    ...     "after": "10.0.0.1"}}})
    >>> text = build(plan, IgnoreSpec([], "--ignore"), None)
    >>> with tempfile.TemporaryDirectory() as d:
    ...     snap = pathlib.Path(d, "plan.snap")
    ...     print(check_file(text, plan.secrets, snap, update=False).status)
    ...     print(check_file(text, plan.secrets, snap, update=True).status)
    ...     _ = snap.write_text(text.replace("10.0.0.1", "10.0.0.2"))
    ...     print(check_file(text, plan.secrets, snap, update=False).lines)
    missing
    written
    ('output.ip: value: "10.0.0.2" -> "10.0.0.1"',)
    """
    name = _file(file, "check_file()")
    _argument(text, str, "text must be a str", "check_file()")
    _argument(secrets, Secrets, "secrets must be a plancheck.Secrets", "check_file()")
    _argument(update, bool, "update must be a bool", "check_file()")
    try:
        existing = read_snapshot_file(name, max_bytes)
    except SnapshotFormatError as exc:
        raise scrubbed_error(exc, secrets) from None
    if existing is None:
        if not update:
            return FileOutcome("missing", ())
        write_snapshot_file(name, text)
        return FileOutcome("written", ())
    if existing == text:
        return FileOutcome("same", ())
    try:
        shown, _ = review(existing, text, secrets, name)
        lines = tuple(shown)
    except SnapshotFormatError as exc:
        # A snapshot edited into a bad state is replaced when asked to; a file that is no snapshot never is.
        if not update or exc.line == 1:
            raise  # review() scrubbed it of the same secrets
        lines = ()
    if update:
        write_snapshot_file(name, text)  # also when only the layout differs: the file stays canonical
        return FileOutcome("updated", lines)
    return FileOutcome("different" if lines else "same", lines)


@public("plancheck.snapshot")
def assert_matches(
    plan: Plan,
    file: str | os.PathLike[str],
    update: bool = False,
    ignore: Any = _NO_IGNORE,
    key: str | bytes | None = None,
) -> None:
    """Hold ``plan`` to the snapshot in ``file``: raise :class:`SnapshotMismatchError` listing every difference.

    A missing file raises :class:`SnapshotMissingError` saying how to write it. With ``update=True``
    the file is written (atomically) when it is missing or differs, and nothing is raised. A file
    that is not a snapshot raises :class:`SnapshotFormatError` naming its line. ``ignore`` and
    ``key`` are as for :func:`render`.

    >>> import pathlib, tempfile
    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "output_changes": {"ip": {"actions": ["create"],
    ...     "after": "10.0.0.1"}}})
    >>> with tempfile.TemporaryDirectory() as d:
    ...     snap = pathlib.Path(d, "plan.snap")
    ...     assert_matches(plan, snap, update=True)
    ...     assert_matches(plan, snap)
    ...     _ = snap.write_text(snap.read_text().replace("10.0.0.1", "10.0.0.2"))
    ...     assert_matches(plan, snap)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    plancheck.snapshot.SnapshotMismatchError: plan does not match the snapshot .../plan.snap (1 difference):
      output.ip: value: "10.0.0.2" -> "10.0.0.1"
    update it with update=True (pytest: --snapshot-update; command line: --update)
    """
    checked = _plan(plan, "assert_matches()")
    _file(file, "assert_matches()")
    _argument(update, bool, "update must be a bool", "assert_matches()")
    text = build(checked, IgnoreSpec(ignore, "assert_matches()"), resolve_key(key))
    outcome = check_file(text, checked.secrets, file, update=update)
    if outcome.status == "missing":
        raise SnapshotMissingError(os.fspath(file))
    if outcome.status == "different":
        raise SnapshotMismatchError(os.fspath(file), outcome.lines)


# -- snapshot files


class Unreadable(str):
    """The stored data of a file that is no snapshot: its error's text, and the error (never equal to a plan's)."""

    error: SnapshotFormatError


def unreadable(error: SnapshotFormatError) -> Unreadable:
    """Stored data standing for the file that ``error`` says is no snapshot."""
    data = Unreadable(f"{error}; {_REPAIR_HINT}")
    data.error = error
    return data


def unreadable_error(data: object) -> str | None:
    """The located error (and repair hint) of stored data that could not be read, or None for a snapshot's text.

    >>> unreadable_error("# tfplancheck plan snapshot 1") is None
    True
    >>> unreadable_error(unreadable(SnapshotFormatError("a.tfplan.snap", 3, "a value line", found="'<<<<<<< HEAD'")))
    "a.tfplan.snap:3: expected a value line, found '<<<<<<< HEAD'; rewrite it with --snapshot-update"
    """
    return str(data) if isinstance(data, Unreadable) else None


def read_snapshot_file(file: str | os.PathLike[str], max_bytes: int | None = None) -> str | None:
    """The text of the snapshot file ``file``, or None when there is none.

    >>> read_snapshot_file("/nonexistent/plan.snap") is None
    True
    """
    name = os.fspath(file)
    limit = max_input_bytes(max_bytes)
    try:
        with open(name, "rb") as stream:
            data = stream.read(limit + 1)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:  # a ValueError: a name the system cannot take (a NUL byte)
        reason = exc.strerror if isinstance(exc, OSError) else why_unopened(exc)
        raise SnapshotFormatError(name, None, "a readable snapshot file", found=reason or type(exc).__name__) from None
    if len(data) > limit:
        raise SnapshotFormatError(
            name, None, f"a snapshot of at most {limit} bytes (raise the limit with {MAX_BYTES_ENV})",
            found="a larger file",
        )
    nul = data.find(b"\x00")
    try:
        text = data.decode("utf-8")
        bad = -1
    except UnicodeDecodeError as exc:
        bad = exc.start
    if nul >= 0 or bad >= 0:
        first = min(at for at in (nul, bad) if at >= 0)
        raise SnapshotFormatError(name, data.count(b"\n", 0, first) + 1, "UTF-8 text", found="binary data")
    return text.removeprefix(_BOM)


def write_snapshot_file(file: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``file`` atomically (its directory is made if missing).

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     write_snapshot_file(pathlib.Path(d, "sub", "plan.snap"), "x\\n")
    ...     pathlib.Path(d, "sub", "plan.snap").read_text()
    'x\\n'
    """
    name = os.fspath(file)
    try:
        write_whole(name, text)
    except OSError as exc:
        raise SnapshotFormatError(name, None, "a snapshot file that can be written",
                                  found=exc.strerror or type(exc).__name__) from None
