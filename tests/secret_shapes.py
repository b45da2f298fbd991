"""Secrets of every shape, and the one definition of a leak, shared by every leak suite.

A secret leaks when any piece of it that identifies it shows: a run of 8 characters of it (or of
its ``repr``/JSON escaping), a whole line of a multi-line secret, or a word of a passphrase.
"""

from __future__ import annotations

import json
import random
import string
from typing import Any

_RNG = random.Random(20261124)
_B64 = string.ascii_letters + string.digits + "+/"


def _chars(n: int, alphabet: str = _B64) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


SHAPES: dict[str, str] = {
    "plain": "s3cr3t-plain-7f1c",
    "multiline-pem": "-----BEGIN ZZTEST PRIVATE KEY-----\n"
    + "\n".join(_chars(64) for _ in range(4))
    + "\nQk9VTkQ=\n-----END ZZTEST PRIVATE KEY-----",
    "long-700": "ZZLONG-" + _chars(700, string.ascii_uppercase + string.digits),
    "quotes-control": "ZZ'Q\"SECRET\x01\x7fEND-ctl\\x",
    "non-ascii": "ZZ-pässwörd-秘密-ключ-🔑-x",
    "passphrase": "zzpass quorrect hoarse battary stapl3x",
    # Go's JSON escapes & < > (\u0026...): a fragment between two escapes must still be scrubbed.
    "dsn-escapes": "zzdsn://app:pw@db/app?ssl=require&application_name=zzmiddlefragment42&t=10<x>\\svc",
}
#: The value of a sensitive variable that is also a for_each key (via nonsensitive()): inside an address.
KEY_SECRET = "zzkey-for-each-5e6f"
#: A map key under a sensitive mark.
MAP_KEY_SECRET = "zzmapkey-under-mark-8a9b"
#: The default of a sensitive variable in a .tf.json configuration.
CONFIG_SECRET = "zzconfig-default\nsecond-line-of-it"
ALL_SECRETS = {**SHAPES, "key": KEY_SECRET, "map-key": MAP_KEY_SECRET, "config": CONFIG_SECRET}

WINDOW = 8


def _renderings(secret: str) -> set[str]:
    return {
        secret,
        repr(secret)[1:-1],
        ascii(secret)[1:-1],
        json.dumps(secret)[1:-1],
        json.dumps(secret, ensure_ascii=False)[1:-1],
    }


def identifying_pieces(secret: str) -> set[str]:
    """What must never show: every 8-character run of every rendering, each line, each word."""
    pieces: set[str] = set()
    # A window across a raw newline ("default\n") is ordinary text at every line end: windows stay in a line.
    for form in (line for rendering in _renderings(secret) for line in rendering.splitlines()):
        if len(form) < WINDOW:
            pieces.add(form)
        pieces.update(form[i : i + WINDOW] for i in range(len(form) - WINDOW + 1))
    pieces.update(line for line in secret.splitlines() if len(line) >= 3)
    pieces.update(word for word in secret.split() if len(word) >= 5)
    return pieces


def leaks(text: str, secrets: dict[str, str] | None = None) -> list[str]:
    """The names of the secrets (``ALL_SECRETS`` unless given) of which some identifying piece is in ``text``."""
    chosen = ALL_SECRETS if secrets is None else secrets
    return sorted(name for name, secret in chosen.items() if any(p in text for p in identifying_pieces(secret)))


def secret_shapes_plan() -> dict[str, Any]:
    """A plan holding every shape: sensitive attributes, a sensitive map's key, variables, an address, an output."""
    triggers = dict(SHAPES)
    return {
        "format_version": "1.2",
        "variables": {"long": {"value": SHAPES["long-700"]}, "key": {"value": KEY_SECRET}},
        "configuration": {"root_module": {"variables": {"long": {"sensitive": True}, "key": {"sensitive": True}}}},
        "resource_changes": [
            {
                "address": "null_resource.a",
                "mode": "managed",
                "type": "null_resource",
                "name": "a",
                "change": {
                    "actions": ["create"],
                    "before": None,
                    "after": {"triggers": triggers, "tags": {MAP_KEY_SECRET: "v"}},
                    "after_unknown": {"id": True},
                    "after_sensitive": {"triggers": {name: True for name in triggers}, "tags": True},
                },
            },
            {
                "address": f'null_resource.fe["{KEY_SECRET}"]',
                "mode": "managed",
                "type": "null_resource",
                "name": "fe",
                "index": KEY_SECRET,
                "change": {"actions": ["create"], "before": None, "after": {}, "after_unknown": {"id": True},
                           "after_sensitive": {}},
            },
        ],
        "output_changes": {
            "pem": {"actions": ["create"], "before": None, "after": SHAPES["multiline-pem"], "after_unknown": False,
                    "before_sensitive": False, "after_sensitive": True},
        },
    }
