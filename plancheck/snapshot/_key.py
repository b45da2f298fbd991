"""Fingerprints of sensitive values: an HMAC under a key only CI holds, so a file can show a secret changed.

Without a key a sensitive value is ``(sensitive)`` and a change to it is invisible in a file (a
file must hold nothing a secret can be guessed from, and a plain hash of a short password can be
reversed by trying every password). With a key (``TFPLANCHECK_SNAPSHOT_KEY``, a CI secret, or
``key=``), each sensitive value is ``(sensitive #0123456789ab)``: HMAC-SHA256 of the value, of where
it is (so two equal secrets do not show as equal) and of its unknown marks, under the key,
truncated to 48 bits. Without the key nothing about the value can be computed from it. An instance
key of an address that hides a secret (a ``for_each`` key) is fingerprinted alike, with the address
before it as where it is: ``a["(sensitive #0123456789ab)"]``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Final

from .._frozen import ReadOnly
from .._redact import number_text

__all__ = ["KEY_ENV", "MIN_KEY_BYTES", "FingerprintKey", "canonical_json", "resolve_key"]

KEY_ENV: Final = "TFPLANCHECK_SNAPSHOT_KEY"
#: A shorter key could be found by trying keys, and with it the secrets behind short fingerprints.
MIN_KEY_BYTES: Final = 16
_FINGERPRINT_HEX: Final = 12
_KEY_ID_HEX: Final = 8
_KEY_ID_MESSAGE: Final = b"tfplancheck plan snapshot key id"


class FingerprintKey(ReadOnly):
    """A key to fingerprint sensitive values with; its repr and its id never show the key.

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


def resolve_key(key: str | bytes | None, environ: Mapping[str, str] | None = None) -> FingerprintKey | None:
    """The key to fingerprint with: ``key``, else ``TFPLANCHECK_SNAPSHOT_KEY`` (unset or empty: none).

    >>> resolve_key(None, {}) is None, resolve_key(None, {"TFPLANCHECK_SNAPSHOT_KEY": "0123456789abcdef"}).id
    (True, '71a6d148')
    >>> resolve_key("short", {})
    Traceback (most recent call last):
    ...
    ValueError: plancheck.snapshot: a fingerprint key must be at least 16 bytes long, got 5 (use a random CI secret)
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
        raise TypeError(f"plancheck.snapshot: key must be a str or bytes, got {type(key).__name__}")
    if len(data) < MIN_KEY_BYTES:
        where = "" if source == "key=" else f" ({source})"
        raise ValueError(
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
            out.append("null" if item is None else "true" if item else "false")
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
