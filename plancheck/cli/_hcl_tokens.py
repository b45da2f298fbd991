"""The tokens of Terraform's native syntax that matter to ``mock-plan``: words, plain strings, brackets, ``=``.

Enough to find module sources, sensitive variable declarations and a variables file's plain values,
without a full HCL parser: strings, heredocs and comments are skipped as HCL skips them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

__all__ = ["hcl_tokens"]

_ESCAPES: Final = {'"': '"', "\\": "\\", "n": "\n", "r": "\r", "t": "\t"}
_HCL_TOKEN: Final = re.compile(
    r"""
    \s+ | \#[^\n]* | //[^\n]* | /\*.*?(?:\*/|\Z)
    | (?P<heredoc> <<-? (?P<tag>[A-Za-z_][\w-]*) [ \t]* \r?\n )
    | (?P<quote> " )
    | (?P<word> [A-Za-z_][\w-]* )
    | (?P<op> ==|!=|<=|>=|=> )
    | (?P<punct> [][{}()=] )
    | (?P<other> . )
    """,
    re.VERBOSE | re.DOTALL,
)


def hcl_tokens(text: str) -> Iterator[tuple[str, str | None]]:
    """The tokens of a native syntax file that matter here: words, plain strings, brackets and ``=``.

    >>> list(hcl_tokens('a = <<EOT\\n}"\\nEOT\\n/* } */ b {"${c}"}'))  # doctest: +NORMALIZE_WHITESPACE
    [('word', 'a'), ('=', None), ('heredoc', None), ('word', 'b'), ('{', None), ('string', None), ('}', None)]
    """
    pos = 0
    while pos < len(text):
        match = _HCL_TOKEN.match(text, pos)
        assert match is not None  # the last alternative takes any one character
        pos = match.end()
        if match["quote"]:
            pos, literal = _hcl_string(text, pos)
            yield "string", literal
        elif match["heredoc"]:
            end = re.compile(rf"^[ \t]*{re.escape(match['tag'])}[ \t]*\r?$", re.MULTILINE).search(text, pos)
            pos = end.end() if end else len(text)
            yield "heredoc", None
        elif match["word"]:
            yield "word", match["word"]
        elif match["punct"]:
            yield match["punct"], None
        elif match["op"] or match["other"]:
            yield "other", None


def _hcl_string(text: str, pos: int) -> tuple[int, str | None]:
    """Skip the quoted template whose opening quote ends at ``pos``: (its end, its value when it is a plain string).

    >>> _hcl_string('"../lib" }', 1), _hcl_string('"a${ {k = "}"}[0] }b" x', 1), _hcl_string('"$${x}"', 1)
    ((8, '../lib'), (21, None), (7, '${x}'))
    """
    # -1: inside quotes; n >= 0: inside ${ } (or %{ }) with n braces open, where a quote opens a nested template.
    stack = [-1]
    value: list[str] = []
    literal = True
    while stack and pos < len(text):
        char = text[pos]
        pos += 1
        if stack[-1] >= 0:
            if char == '"':
                stack.append(-1)
            elif char in "{}":
                stack[-1] += 1 if char == "{" else -1
                if stack[-1] < 0:
                    stack.pop()
        elif char == '"':
            stack.pop()
        elif char == "\n":
            break  # a quoted string ends on its line; Terraform reports the missing quote
        elif char == "\\":
            escaped = _ESCAPES.get(text[pos : pos + 1])
            literal = literal and escaped is not None
            value.append(escaped or "")
            pos += 1
        elif char in "$%" and text.startswith(char + "{", pos):  # $${ and %%{ are a literal ${ and %{
            value.append(char + "{")
            pos += 2
        elif char in "$%" and text.startswith("{", pos):
            literal = False
            stack.append(0)
            pos += 1
        else:
            value.append(char)
    return pos, "".join(value) if literal and not stack else None
