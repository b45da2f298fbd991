"""The escaped text form of a path: ``root["example-key"][0].nested``.

Go's dotted ``String()`` is ambiguous (``a.0`` may be a key "0" or an index
0; a key may contain a dot) and has no parser. This form is unambiguous:
bare identifiers after a dot, every other key as a JSON string in brackets,
and indexes as bare integers in brackets.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from ._errors import PathSyntaxError
from ._steps import MapStep, SliceStep, Step

__all__ = ["parse_steps", "render_steps"]

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_IDENT_AT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_INDEX_AT = re.compile(r"(0|[1-9][0-9]*)\]")
_scanstring = json.decoder.scanstring  # type: ignore[attr-defined]


def quote_key(key: str) -> str:
    """Render a key as a JSON string literal (unicode kept readable)."""
    return json.dumps(key, ensure_ascii=False)


def render_steps(steps: Iterable[Step]) -> str:
    parts: list[str] = []
    for step in steps:
        if isinstance(step, SliceStep):
            parts.append(f"[{step.index}]")
        elif not parts and _IDENT.match(step.key):
            # Only a leading key goes bare: later keys are map keys or attributes, which
            # JSON cannot tell apart, so they always take the bracketed form, as HCL shows map keys.
            parts.append(step.key)
        else:
            parts.append(f"[{quote_key(step.key)}]")
    return "".join(parts)


def parse_steps(text: str) -> tuple[Step, ...]:
    if not isinstance(text, str):
        raise TypeError(f"Path.parse expects a str, got {type(text).__name__}")
    steps: list[Step] = []
    pos = 0
    end = len(text)
    while pos < end:
        ch = text[pos]
        if ch == "[":
            pos += 1
            if pos < end and text[pos] == '"':
                try:
                    key, after = _scanstring(text, pos + 1, True)
                except json.JSONDecodeError as exc:
                    raise PathSyntaxError(text, exc.pos, "a valid JSON string: " + exc.msg) from None
                if after >= end or text[after] != "]":
                    raise PathSyntaxError(text, after, "']' after the quoted key")
                steps.append(MapStep(key))
                pos = after + 1
                continue
            m = _INDEX_AT.match(text, pos)
            if m is None:
                raise PathSyntaxError(text, pos, "a number or a quoted key")
            steps.append(SliceStep(int(m.group(1))))
            pos = m.end()
            continue
        if steps:
            if ch != ".":
                raise PathSyntaxError(text, pos, "'.', '[' or the end of the path")
            pos += 1
        m = _IDENT_AT.match(text, pos)
        if m is None:
            raise PathSyntaxError(text, pos, "an identifier (quote other keys as [\"...\"])")
        steps.append(MapStep(m.group(0)))
        pos = m.end()
    return tuple(steps)
