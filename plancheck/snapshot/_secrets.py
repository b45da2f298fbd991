"""How a secret shows in a snapshot: which values touch one (asked fast), and fingerprints under a key.

Fingerprints are an HMAC under a key only CI holds, so a file can show a secret changed. Without a
key a sensitive value is ``(sensitive)`` and a change to it is invisible in a file (a file must hold
nothing a secret can be guessed from, and a plain hash of a short password can be reversed by trying
every password). With a key (``TFPLANCHECK_SNAPSHOT_KEY``, a CI secret, or ``key=``), each sensitive
value is ``(sensitive #0123456789ab)``: HMAC-SHA256 of the value, of where it is (so two equal
secrets do not show as equal) and of its unknown marks, under the key, truncated to 48 bits. Without
the key nothing about the value can be computed from it. An instance key of an address that hides a
secret (a ``for_each`` key) is fingerprinted alike, with the address before it as where it is:
``a["(sensitive #0123456789ab)"]``.

Which values touch a secret is :meth:`Secrets.touches`, answered fast. A snapshot asks about every
string of the plan, where a failure message asks about a few lines. :meth:`Secrets.touches` scans a
text position by position and, where an 8-character window of a secret is found, tries every secret
starting with that window: with thousands of secrets sharing a prefix (``arn:aws:``, a connection
string's scheme) that is thousands of tries a position. The same question is answered here from the
same pieces (:class:`plancheck._redact._Scanner`, built once per plan) with set operations done in
C: short pieces standing as whole tokens, then the windows present, then the whole pieces starting
at a window (tried by the few lengths they have), then the runs of windows standing at a cut
(:func:`plancheck._text.at_cut`). The answer is exactly :meth:`Secrets.touches`'s (a property test
holds the two to each other), and each distinct text is asked once. Trusted texts
(:meth:`Secrets.trusting`, a plan's configuration names) are not consulted: a value is not a name,
so a short secret inside a value that spells a name is scrubbed here, the stricter answer.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Final

from tfjsonpath._jsontypes import number_text

from .._errors import ArgumentError
from .._frozen import ReadOnly, public
from .._redact import MIN_SECRET_LENGTH, NO_SECRETS, SUBSTRING_WINDOW, Secrets
from .._text import at_cut, whole_token
from ._format import JSON_LITERALS

__all__ = ["KEY_ENV", "MEMO_LIMIT", "MIN_KEY_BYTES", "FingerprintKey", "ValueSecrets", "canonical_json", "resolve_key"]

#: Remember at most this many answers, so the memory of a plan of millions of distinct strings stays bounded.
MEMO_LIMIT: Final = 1 << 20


class _Detector:
    """The pieces of a set of secrets, indexed for one question: does a text touch any of them?"""

    __slots__ = ("long", "short", "tried", "whole", "windows")

    def __init__(self, secrets: Secrets) -> None:
        scanner = secrets._scanner
        self.short: tuple[tuple[int, frozenset[str]], ...] = scanner.searches
        self.windows: frozenset[str] = scanner.every_window()
        self.long: Mapping[str, tuple[str, ...]] = scanner.long
        # The whole pieces by their first window, tried by the few lengths they have: thousands of secrets
        # can share a first window (``november-``), and a set answers for all of one length in one look-up.
        # Made for a window when a text first holds it: most of a plan's secrets are never met in a value.
        self.tried: dict[str, tuple[frozenset[str], tuple[int, ...]]] = {}
        self.whole: frozenset[str] = scanner.whole

    def touches(self, text: str) -> bool:
        size = len(text)
        if size < MIN_SECRET_LENGTH:
            return False
        if text in self.whole:
            return True
        width = SUBSTRING_WINDOW
        windows = self.windows
        # A window at either end of the value stands at a cut (the value's own start or end).
        if size >= width and (text[:width] in windows or text[-width:] in windows):
            return True
        part = text.__getitem__
        for n, forms in self.short:
            if n > size:
                break
            # A short piece counts where it stands as a whole token; the set test in C skips most values.
            if not forms.isdisjoint(map(part, map(slice, range(size - n + 1), range(n, size + 1)))) and any(
                text[i : i + n] in forms and whole_token(text, i, i + n) for i in range(size - n + 1)
            ):
                return True
        if size < width:
            return False
        hits = list(map(windows.__contains__, map(part, map(slice, range(size - width + 1), range(width, size + 1)))))
        if True not in hits:
            return False
        long, tried = self.long, self.tried
        run_start = run_end = -1
        for i, hit in enumerate(hits):
            if not hit:
                continue
            window = text[i : i + width]
            entry = tried.get(window)
            if entry is None and window in long:
                pieces = long[window]
                entry = tried[window] = (frozenset(pieces), tuple(sorted({len(f) for f in pieces}, reverse=True)))
            if entry is not None:
                forms, lengths = entry
                for n in lengths:
                    if n <= size - i and text[i : i + n] in forms:
                        return True
            # Overlapping and adjacent windows make one fragment; it counts where a renderer could cut it.
            if run_end >= 0 and i <= run_end:
                run_end = i + width
                continue
            if run_end >= 0 and at_cut(text, run_start, run_end):
                return True
            run_start, run_end = i, i + width
        return run_end >= 0 and at_cut(text, run_start, run_end)


class ValueSecrets:
    """:meth:`plancheck.Secrets.touches` for the values of a plan, fast, remembered per text.

    >>> s = ValueSecrets(Secrets(["hunter2"]))
    >>> s.active, s.touches("pw=hunter2"), s.touches("hello")
    (True, True, False)
    >>> ValueSecrets().active
    False
    """

    __slots__ = ("_detector", "_secrets", "active", "answers", "keys", "tokens")

    def __init__(self, secrets: Secrets = NO_SECRETS) -> None:
        self._secrets = secrets
        self.active = len(secrets) > 0
        #: The answers of :meth:`touches` so far: a walk over a plan's values looks a text up here itself
        #: (a dict look-up costs a fraction of a method call) and calls :meth:`touches` only on a miss.
        self.answers: dict[str, bool] = {}
        #: Each string value as the walk of :mod:`plancheck.snapshot._values` shows it ("" where it touches
        #: a secret), kept here for the whole plan: a plan repeats most of its strings many times.
        self.tokens: dict[str, str] = {}
        #: Each instance key of an address as shown (scrubbed where it touches a secret): the keys of
        #: ``for_each`` repeat across the resources of a module, and scrubbing one reads it character by character.
        self.keys: dict[str, str] = {}
        self._detector: _Detector | None = None

    def touches(self, text: str) -> bool:
        """Whether ``text`` shows a secret or a piece of one, as :meth:`plancheck.Secrets.touches` says."""
        memo = self.answers
        found = memo.get(text)
        if found is None:
            detector = self._detector
            if detector is None:
                detector = self._detector = _Detector(self._secrets)
            found = detector.touches(text)
            if len(memo) < MEMO_LIMIT:
                memo[text] = found
        return found

    def scrub(self, text: str) -> str:
        """:meth:`plancheck.Secrets.scrub`, asked only where ``text`` touches a secret, remembered per text.

        >>> ValueSecrets(Secrets(["hunter2"])).scrub("hunter2-key"), ValueSecrets(Secrets(["hunter2"])).scrub("web")
        ('(sensitive)-key', 'web')
        """
        shown = self.keys.get(text)
        if shown is None:
            shown = self._secrets.scrub(text) if self.active and self.touches(text) else text
            if len(self.keys) < MEMO_LIMIT:
                self.keys[text] = shown
        return shown

    @property
    def secrets(self) -> Secrets:
        """The secrets asked."""
        return self._secrets


# -- fingerprints

KEY_ENV: Final = "TFPLANCHECK_SNAPSHOT_KEY"
#: A shorter key could be found by trying keys, and with it the secrets behind short fingerprints.
MIN_KEY_BYTES: Final = 16
_FINGERPRINT_HEX: Final = 12
_KEY_ID_HEX: Final = 8
_KEY_ID_MESSAGE: Final = b"tfplancheck plan snapshot key id"


@public("plancheck.snapshot")
class FingerprintKey(ReadOnly):
    """A key to fingerprint sensitive values with (:func:`resolve_key` makes it); its repr and its id never show the key.

    >>> key = FingerprintKey(b"0123456789abcdef-ci-secret")
    >>> key
    <FingerprintKey #0525957f>
    >>> key.fingerprint("null_resource.a\\x00password", "hunter2", None)
    '2234f531179d'
    """

    __slots__ = ("_key", "id")
    _key: bytes
    id: str

    def __init__(self, key: bytes) -> None:
        if not isinstance(key, bytes):  # hmac's own TypeError names no class of ours
            raise ArgumentError(f"FingerprintKey key must be bytes, got {type(key).__name__} (make it with resolve_key)")
        digest = hmac.new(key, _KEY_ID_MESSAGE, hashlib.sha256).hexdigest()
        self._set(_key=key, id=digest[:_KEY_ID_HEX])

    def __repr__(self) -> str:
        return f"<FingerprintKey #{self.id}>"

    def __reduce__(self) -> Any:
        raise TypeError("a FingerprintKey is not pickled: it holds a secret")

    def fingerprint(self, where: str, value: Any, unknown: Any) -> str:
        """The fingerprint of ``value`` (with its unknown marks ``unknown``) at ``where``."""
        message = f"{where}\x00{canonical_json(value)}\x00{canonical_json(unknown)}".encode("utf-8", "surrogatepass")
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()[:_FINGERPRINT_HEX]


@public("plancheck.snapshot")
def resolve_key(key: str | bytes | None, environ: Mapping[str, str] | None = None) -> FingerprintKey | None:
    """The key to fingerprint with: ``key``, else ``TFPLANCHECK_SNAPSHOT_KEY`` (unset or empty: none).

    ``environ`` is where the variable is looked up (default: ``os.environ``); a key shorter than 16
    bytes is a ``ValueError``, so a front end can refuse a bad CI secret before it reads a plan.

    >>> resolve_key(None, {}) is None, resolve_key(None, {"TFPLANCHECK_SNAPSHOT_KEY": "0123456789abcdef"}).id
    (True, '71a6d148')
    >>> resolve_key("short", {})
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: plancheck.snapshot: a fingerprint key must be at least 16 bytes long, got 5 (use a random CI secret)
    """
    source = "key="
    if key is None:
        text = (os.environ if environ is None else environ).get(KEY_ENV, "")
        if not text:
            return None
        key, source = text, f"${KEY_ENV}"
    if isinstance(key, str):
        data = key.encode("utf-8", "surrogatepass")
    elif isinstance(key, (bytes, bytearray)):
        data = bytes(key)
    else:
        raise ArgumentError(f"plancheck.snapshot: key must be a str or bytes, got {type(key).__name__}")
    if len(data) < MIN_KEY_BYTES:
        where = "" if source == "key=" else f" ({source})"
        raise ArgumentError(
            f"plancheck.snapshot: a fingerprint key{where} must be at least {MIN_KEY_BYTES} bytes long, "
            f"got {len(data)} (use a random CI secret)"
        )
    return FingerprintKey(data)


def canonical_json(value: Any) -> str:
    """One text per JSON value, whatever its key order: sorted keys, no spaces, exact numbers.

    Iterative, so any depth works.

    >>> canonical_json({"b": [1, Decimal("2.5"), None], "a": "x"})
    '{"a":"x","b":[1,2.5,null]}'
    """
    out: list[str] = []
    stack: list[Any] = [value]
    marker = _Text
    while stack:
        item = stack.pop()
        if type(item) is marker:
            out.append(item.text)
        elif isinstance(item, Mapping):
            keys = sorted(item)
            stack.append(marker("}"))
            for i in range(len(keys) - 1, -1, -1):
                stack.append(item[keys[i]])
                stack.append(marker(("," if i else "") + json.dumps(str(keys[i])) + ":"))
            stack.append(marker("{"))
        elif isinstance(item, (list, tuple)):
            stack.append(marker("]"))
            for i in range(len(item) - 1, -1, -1):
                stack.append(item[i])
                if i:
                    stack.append(marker(","))
            stack.append(marker("["))
        elif item is None or isinstance(item, bool):
            out.append(JSON_LITERALS[item])
        elif isinstance(item, str):
            out.append(json.dumps(item))
        elif isinstance(item, (int, Decimal)):
            out.append(number_text(item))
        else:
            out.append(repr(item))
    return "".join(out)


class _Text:
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text
