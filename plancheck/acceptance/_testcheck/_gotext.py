"""Go's ``fmt`` verbs as the legacy check functions use them: ``%q``/``%#v`` of strings and maps.

The check functions word their failures exactly as Go's ``helper/resource`` does, so a
message from a ported suite reads the same as the Go original.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

__all__ = ["go_quote", "go_string_map"]

_ESCAPES: Final = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    '"': '\\"',
    "\\": "\\\\",
}


def _escape(char: str) -> str:
    escaped = _ESCAPES.get(char)
    if escaped is not None:
        return escaped
    if char.isprintable():
        # Python's printable set is Go's unicode.IsPrint: letters, marks, numbers, punctuation,
        # symbols and the ASCII space.
        return char
    code = ord(char)
    if code < 0x80:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def go_quote(text: str) -> str:
    """``text`` as Go's ``%q`` (and ``%#v`` of a string) writes it: double-quoted, Go escapes.

    >>> print(go_quote('say "hi"\\n'), go_quote("tab\\tnbsp\\u00a0é"), go_quote("\\x00"))
    "say \\"hi\\"\\n" "tab\\tnbsp\\u00a0é" "\\x00"
    """
    if text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    return '"' + "".join(_escape(c) for c in text) + '"'


def go_string_map(entries: Mapping[str, str], shown: Mapping[str, str] | None = None) -> str:
    """A ``map[string]string`` as Go's ``%#v`` writes it: keys sorted, each ``"key":"value"``.

    ``shown`` gives, for some keys, the text to show instead of the quoted value (``(sensitive)``).

    >>> print(go_string_map({"b": "2", "a": "1"}), go_string_map({"pw": "x"}, {"pw": "(sensitive)"}))
    map[string]string{"a":"1", "b":"2"} map[string]string{"pw":(sensitive)}
    """
    overrides = shown or {}
    parts = []
    for key in sorted(entries):
        value = overrides.get(key)
        parts.append(f"{go_quote(key)}:{go_quote(entries[key]) if value is None else value}")
    return "map[string]string{" + ", ".join(parts) + "}"
