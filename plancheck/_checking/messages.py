"""How plan, state and configuration checks word their failures: one helper for each piece of text.

A failure names its check, the address (scrubbed of secrets) and a message; the
pieces here (a quoted key, the closest names to a missing one, a deposed object's
prefix, an output's address) read the same in every check family.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from functools import partial

from tfjsonpath import Path

from .._documents.sensitive import shown_address
from .._errors import CheckFailure
from .._loading.collector import collector_off
from .._redact import SENSITIVE, Secrets
from .._text import closest, config_parts, quote

__all__ = [
    "RUNNING_CHECK",
    "actions_text",
    "closest",
    "closest_text",
    "deposed_prefix",
    "given_by",
    "keyed_address",
    "located",
    "output_address",
    "quote",
    "scrubbed_failure",
    "scrubbed_record",
]


def closest_text(found: Sequence[str], what: str, where: str) -> str:
    """The end of a not-found message: the closest names, or that ``where`` has none like it.

    >>> closest_text(["a.b", "a.c"], "address", "plan"), closest_text([], "output name", "state")
    ('; closest: a.b, a.c', '; the state has no similar output name')
    """
    if found:
        return "; closest: " + ", ".join(found)
    return f"; the {where} has no similar {what}"


#: Where the running check is kept: a one-item list (a slot), so that a runner of many checks sets the
#: context variable once and only stores each check in the slot (a set and reset per check would cost
#: as much as a check). Its paths are the user's own text, never scrubbed (see :func:`given_by`).
RUNNING_CHECK: ContextVar[list[object] | None] = ContextVar("plancheck_running_check", default=None)


class given_by:  # lower case: read as a function, ``with given_by(check):``
    """Within this block, failures trust the paths ``check`` was given (its :class:`~tfjsonpath.Path` fields).

    A path the user wrote is their own text: a short secret in its keys is not scrubbed from a
    failure (``input["tags"]`` for a sensitive map holding the word ``tags``); a long one is, since a
    path can be computed from a secret (:meth:`plancheck.Secrets.scrub_trusted`). Keys a check found
    below it (a key of the actual value) are scrubbed as any text is. Every runner of checks
    (:func:`plancheck._checking.run.outcome_of`, ``by_method``, ``CheckPlan`` and its siblings)
    runs a check inside this block, so every message builder gets it through :func:`scrubbed_failure`.
    Only the check is remembered here; its paths are read when a failure is built (most checks pass).

    >>> from tfjsonpath import New
    >>> from plancheck import ExpectKnownValue, knownvalue as kv
    >>> with given_by(ExpectKnownValue("t.a", New("tags"), kv.NotNull())):
    ...     str(scrubbed_failure(Secrets(["tags", "env"]), "ExpectX", "t.a", New("tags").AtMapKey("env"), "no"))
    'ExpectX: t.a: tags["(sensitive)"]: no'
    """

    __slots__ = ("_check", "_previous", "_slot", "_token")

    def __init__(self, check: object) -> None:
        self._check = check

    def __enter__(self) -> None:
        slot = RUNNING_CHECK.get()
        if slot is None:
            slot = [None]
            self._token = RUNNING_CHECK.set(slot)
        self._slot, self._previous = slot, slot[0]
        slot[0] = self._check

    def __exit__(self, *exc: object) -> None:
        self._slot[0] = self._previous
        token = getattr(self, "_token", None)
        if token is not None:
            RUNNING_CHECK.reset(token)


def _given_prefix(path: Path, check: object) -> str | None:
    """The text of the longest path ``check`` was given (a field of it) that ``path`` starts with, if any."""
    if check is None or not dataclasses.is_dataclass(check) or isinstance(check, type):
        return None
    best: str | None = None
    text = path.to_text()
    for field in dataclasses.fields(check):
        given = getattr(check, field.name, None)
        if not isinstance(given, Path):
            continue
        n = len(given.steps)
        if n and tuple(path.steps[:n]) == tuple(given.steps):
            prefix = given.to_text()
            if text.startswith(prefix) and (best is None or len(prefix) > len(best)):
                best = prefix
    return best


def keyed_address(address: str, secrets: Secrets, scrub: Callable[[str], str],
                  fingerprint: Callable[[str, str], str]) -> str:
    """:func:`shown_address` with ``scrub`` for the keys, and the last ``(sensitive)`` of each key that hides a secret
    carrying ``fingerprint(the address before the key, the key)``: ``["(sensitive #0123456789ab)"]``. Objects of
    one resource keyed by secrets are told apart by which key they have (not by what it is); a snapshot's keys and
    a baseline's failures are written so, with their fingerprint key's HMAC.

    >>> keyed_address('a.b["pw-hunter2"]', Secrets(["pw-hunter2"]), Secrets(["pw-hunter2"]).scrub, lambda w, k: "0" * 12)
    'a.b["(sensitive #000000000000)"]'
    """
    at = 0

    def fingerprinted(text: str) -> str:
        nonlocal at
        # shown_address hands the keys over left to right; where each is found names the address before it.
        start = address.index(f'["{text}"]', at)
        at = start + len(text) + 4
        shown = scrub(text)
        head, sep, tail = shown.rpartition(SENSITIVE)
        if shown == text or not sep:
            return shown
        return f"{head}(sensitive #{fingerprint(address[:start], text)}){tail}"

    return shown_address(address, secrets, scrub=fingerprinted)


def scrubbed_failure(
    secrets: Secrets, check: str, address: str | None, path: Path | None, message: str
) -> CheckFailure:
    """A CheckFailure with every one of ``secrets`` scrubbed out of its message, address and path text.

    The one place every failure's text is scrubbed, and so the one place that knows what is
    trusted: the configuration's names in the address (all but its instance keys, which can hold a
    ``for_each`` secret) and the path the check was given (:func:`given_by`) keep the short secrets
    standing in them (words the user wrote); the rest of the path (a map key found in the value) and
    the message are scrubbed, and so is a long secret anywhere (:meth:`plancheck.Secrets.trusting`). The failure carries the
    trusted texts (``trusted``), so that a later scrub of the whole text at an exit (the pytest
    report, the CLI's output) keeps them too (:meth:`plancheck.Secrets.trusting`).

    Trust only spares spans a scrub found: when neither the address, the path's text nor the message
    holds a piece of a secret (most failures), every scrub below is the text itself, so none is run, and the
    trusted texts are made only if an exit's scrub finds a span and asks for them.

    >>> from tfjsonpath import New
    >>> str(scrubbed_failure(Secrets(["pw1-key"]), "ExpectX", "a.b", New("t").AtMapKey("pw1-key"), "no"))
    'ExpectX: a.b: t["(sensitive)"]: no'

    >>> scrubbed_failure(Secrets(["pw1"]), "ExpectX", 'a.b["pw1"]', None, "got pw1")
    CheckFailure('ExpectX', 'a.b["(sensitive)"]', None, 'got (sensitive)')
    >>> str(scrubbed_failure(Secrets(["tags"]), "ExpectX", "terraform_data.tags", None, 'tags: got "tags"'))
    'ExpectX: terraform_data.tags: (sensitive): got "(sensitive)"'
    """
    slot = RUNNING_CHECK.get()
    given = None if slot is None else slot[0]
    text = prefix = None
    if path is not None:
        text = path.to_text()
        prefix = _given_prefix(path, given)
    # Asked before any trust spares a span: a long message naming many addresses is scanned once more, not filtered.
    finds = secrets.finds
    # Building the scanner of a large plan's secrets and scrubbing a long text make many objects and no cycle:
    # the young collections they set off made a full one due, a visit of the whole parsed plan for nothing
    # (2.6 s of the 20,000-resource plan's warning, see collector_off).
    with collector_off():
        if (
            finds(message)
            or (address is not None and finds(address))
            # The given part and the rest apart, as they are scrubbed: each one's ends are where a value may be cut.
            or (text is not None and (finds(text) if prefix is None else finds(prefix) or finds(text[len(prefix) :])))
        ):
            return _scrubbed_parts(secrets, check, address, path, message, prefix)
    return CheckFailure(check, address, path, message, None, partial(_trusted, check, address, prefix))


def _trusted(check: str, address: str | None, prefix: str | None) -> tuple[str, ...]:
    """What a failure trusts: its address's configuration names, and the path its check was given (``prefix``),
    as it stands after the address (the given path can equal a secret) and alone.

    The text after an address's last ``]`` is outside its instance keys: the same before and after they are scrubbed.
    """
    trusted: list[str] = []
    if address is not None:
        trusted.extend(config_parts(address))
    if prefix is not None:
        tail = address.rsplit("]", 1)[-1] if address is not None else check
        trusted.extend((f"{tail}: {prefix}", prefix))
    return tuple(trusted)


def _scrubbed_parts(
    secrets: Secrets, check: str, address: str | None, path: Path | None, message: str, prefix: str | None
) -> CheckFailure:
    """:func:`scrubbed_failure` of a failure whose text shows a secret: each part scrubbed, trusting what it trusts;
    ``prefix`` is the text of the path its check was given (:func:`_given_prefix`)."""
    trusted = _trusted(check, address, prefix)
    unscrubbed = address
    if address is not None:
        address = shown_address(address, secrets)
    shown_path = None
    if path is not None:
        text = path.to_text()
        if prefix is not None:
            shown = secrets.scrub_trusted(prefix) + secrets.scrub(text[len(prefix) :])
        else:
            # A map key can be a secret too (a for_each key, a key of a sensitive map).
            shown = secrets.scrub(text)
        shown_path = shown if shown != text else None
    scrub = secrets.trusting(trusted) if trusted else secrets
    return CheckFailure(check, address, path, scrub.scrub(message), shown_path, trusted,
                        unscrubbed_address=unscrubbed if unscrubbed != address else None)


def scrubbed_record(secrets: Secrets, failure: CheckFailure) -> CheckFailure:
    """``failure`` as a user's check built it itself (a ``CheckFailure``, or a text the runner labelled), with every
    one of ``secrets`` scrubbed out of its label, address, path text and message, as :func:`scrubbed_failure` scrubs one
    (trusting what the failure trusts); the failure itself when none shows one.

    The library's checks build each failure with :func:`scrubbed_failure`; a user's may not (Go's way is a
    plain error), so the runner scrubs what it gave with its document's secrets (:func:`plancheck._checking.run.run_each`).

    >>> from tfjsonpath import New
    >>> str(scrubbed_record(Secrets(["pw1-key"]), CheckFailure("Mine", 'a.b["pw1-key"]', New("t").AtMapKey("pw1-key"), "got pw1-key")))
    'Mine: a.b["(sensitive)"]: t["(sensitive)"]: got (sensitive)'
    >>> failure = CheckFailure("Mine", "a.b", None, "no tag")
    >>> scrubbed_record(Secrets(["pw1-key"]), failure) is failure
    True
    """
    address, path, message = failure.address, failure.path, failure.message
    text = failure.shown_path if failure.shown_path is not None else None if path is None else path.to_text()
    finds = secrets.finds
    with collector_off():
        if not any(isinstance(part, str) and finds(part) for part in (failure.check, message, address, text)):
            return failure
        trusted = failure.trusted
        scrub = secrets.trusting(trusted) if trusted else secrets
        shown_path = failure.shown_path
        if text is not None:
            shown = scrub.scrub(text)
            shown_path = shown if shown != text else shown_path
        shown_at = None if address is None else shown_address(address, secrets)
        return dataclasses.replace(
            failure,
            check=scrub.scrub(failure.check) if isinstance(failure.check, str) else failure.check,  # a label it made
            address=shown_at,
            message=scrub.scrub(message),
            shown_path=shown_path,
            unscrubbed_address=address if shown_at != address else failure.unscrubbed_address,
        )


def actions_text(actions: Sequence[str]) -> str:
    """Actions as Go's plancheck prints them.

    >>> actions_text(["delete", "create"])
    '[delete create]'
    """
    return "[" + " ".join(actions) + "]"


def deposed_prefix(deposed: str | None) -> str:
    """The message prefix that says a failure is about a deposed object.

    >>> deposed_prefix("k1"), deposed_prefix(None)
    ('deposed object "k1": ', '')
    """
    return f"deposed object {quote(deposed)}: " if deposed is not None else ""


def output_address(name: str) -> str:
    """The address a failure about output ``name`` carries.

    >>> output_address("ip")
    'output.ip'
    """
    return f"output.{name}"


def located(address: str, path: Path) -> str:
    """An address and a path as one text, as Go prints them.

    >>> from tfjsonpath import New
    >>> located("test_resource.one", New("list").AtSliceIndex(0)), located("a.b", Path())
    ('test_resource.one.list[0]', 'a.b')
    """
    text = path.to_text()
    if not text:
        return address
    return address + (text if text.startswith("[") else "." + text)
